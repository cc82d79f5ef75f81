package oltp

import "strings"

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// escapeLike makes user search text match literally inside a LIKE pattern.
func escapeLike(s string) string { return likeEscaper.Replace(s) }
