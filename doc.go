// Package sightline holds the domain vocabulary shared by every other package:
// error codes, roles and capabilities, engines, mention types and tones. It
// imports nothing internal, so the stores, the job workers and the HTTP API
// can all speak it without cycles.
package sightline
