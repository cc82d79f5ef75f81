package oltp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// SetBrandDescription stores a generated description on the project's
// brand profile unless one is already there.
func SetBrandDescription(ctx context.Context, db DBTX, projectID uuid.UUID, description string) error {
	_, err := db.Exec(ctx, `
		UPDATE brand_profiles SET description = $2, description_generated_at = now()
		WHERE project_id = $1 AND description IS NULL`, projectID, description)
	if err != nil {
		return fmt.Errorf("saving brand description: %w", err)
	}
	return nil
}
