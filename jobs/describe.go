package jobs

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/ingest"
	"github.com/sightline/sightline/oltp"
)

// DescribeBrandArgs asks for a project's brand description to be generated
// (spec 2.6: generated asynchronously; null until then). Project creation
// enqueues it in its own transaction; replacing the brand lists does not
// regenerate the description.
type DescribeBrandArgs struct {
	onMaintenanceQueue
	ProjectID uuid.UUID `json:"projectId"`
}

// Kind names the job on the queue.
func (DescribeBrandArgs) Kind() string { return "brand_description" }

// maxDescriptionRunes bounds a stored description.
const maxDescriptionRunes = 1000

// DescribeBrandWorker asks the chatgpt engine what the brand is and keeps
// the first paragraph of the answer, plain text, as the description. A
// description once generated is kept: running the job again changes
// nothing.
type DescribeBrandWorker struct {
	river.WorkerDefaults[DescribeBrandArgs]
	Pool   *pgxpool.Pool
	Engine ingest.Engine
}

// Work generates and stores the description.
func (w *DescribeBrandWorker) Work(ctx context.Context, job *river.Job[DescribeBrandArgs]) error {
	if w.Engine == nil {
		return errors.New("brand description worker has no engine configured")
	}
	brands, err := ProjectBrands(ctx, w.Pool, job.Args.ProjectID)
	if err != nil {
		return err
	}
	if len(brands.Own.Names) == 0 {
		return nil // the project is gone or has no profile
	}
	question := "what is " + brands.Own.Names[0]
	if len(brands.Own.Domains) > 0 {
		question += " (" + brands.Own.Domains[0] + ")"
	}
	capture, err := w.Engine.Ask(ctx, ingest.Request{
		TrackedQueryID: job.Args.ProjectID, QueryText: question, Engine: sightline.EngineChatGPT, Country: "US",
		PassCount: 1, Day: time.Now().UTC().Truncate(24 * time.Hour), Brands: brands,
	})
	if err != nil {
		return err
	}
	if capture.Answer == nil {
		return errors.New("brand description: the engine gave no answer")
	}
	description := describeFromAnswer(capture.Answer.Text)
	if description == "" {
		return errors.New("brand description: the answer was empty")
	}
	return oltp.SetBrandDescription(ctx, w.Pool, job.Args.ProjectID, description)
}

var (
	markdownLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	markdownEmphasis = regexp.MustCompile("[*_`#>]+")
	whitespaceRun    = regexp.MustCompile(`\s+`)
)

// describeFromAnswer is the first non-empty paragraph of an answer as plain
// text, cut at maxDescriptionRunes.
func describeFromAnswer(text string) string {
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		p := markdownLink.ReplaceAllString(para, "$1")
		p = markdownEmphasis.ReplaceAllString(p, "")
		p = strings.TrimSpace(whitespaceRun.ReplaceAllString(p, " "))
		if p == "" {
			continue
		}
		if utf8.RuneCountInString(p) > maxDescriptionRunes {
			p = string([]rune(p)[:maxDescriptionRunes])
		}
		return p
	}
	return ""
}
