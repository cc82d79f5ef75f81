package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/oltp"
)

// Projects and their brand profiles (spec 4.6, 3.2).
//
// Decisions where the spec is silent:
//   - Listing rows are the project record plus its metrics. trackedQueryCount
//     is counted live (active and paused queries); the other metrics are read
//     from the project listing's projection (project_listing_metrics),
//     refreshed after each completed check over the checks of the last 30
//     days (jobs.ProjectMetricsWindow); null when no check in that window
//     measured them. Sorting by
//     a metric puts unknown values last in either direction; ties are broken
//     by id in the sort's direction.
//   - Names are trimmed; a blank one is refused. Control characters are
//     refused in names and brand names; a brand name has at most 255
//     characters.
//   - A rename of an archived project is refused with 409 even when it names
//     the current name: the answer does not depend on the current name. Only
//     a retry under the Idempotency-Key of a rename that succeeded replays
//     its 200.

// projectsSearchMax bounds the listing's search text (spec 8).
const projectsSearchMax = 100

func projectListParams() []*openapi3.Parameter {
	return append(pagingParams(),
		openapi3.NewQueryParameter("search").WithSchema(stringSchema().WithMaxLength(projectsSearchMax)).
			WithDescription("Case-insensitive substring of the name."),
		openapi3.NewQueryParameter("status").WithSchema(enumOf("active", "archived")).
			WithDescription("Only projects in this state; both when absent."),
		openapi3.NewQueryParameter("sortBy").WithSchema(enumOf(oltp.ProjectSortKeys...).WithDefault("createdAt")).
			WithDescription("Metrics sort with unknown (null) values last in either order; ties by id."),
		openapi3.NewQueryParameter("sortOrder").WithSchema(enumOf("asc", "desc").WithDefault("desc")),
	)
}

func (s *server) handleListProjects(r *request) (any, error) {
	q := r.query
	limit, offset := q.page()
	page, total, err := oltp.ListProjects(r.Context(), s.pool, oltp.ProjectFilter{
		OrganizationID: r.organizationID,
		Search:         q.string("search"),
		Status:         q.string("status"),
		SortBy:         q.string("sortBy"),
		Descending:     q.string("sortOrder") == "desc",
		Limit:          limit,
		Offset:         offset,
	})
	if err != nil {
		return nil, err
	}
	return listing[oltp.ProjectRow]{Page: page, Total: total, Limit: limit, Offset: offset}, nil
}

type projectCreateBody struct {
	Name           string           `json:"name" required:"true"`
	WebsiteDomains []string         `json:"websiteDomains" required:"true" validate:"min=1"`
	BrandNames     []string         `json:"brandNames" required:"true" validate:"min=1"`
	Competitors    []competitorBody `json:"competitors" validate:"dive"`
}

func (b *projectCreateBody) normalize(errs sightline.ValidationErrors) {
	b.Name = oltp.NormalizeName("name", b.Name, oltp.MaxProjectNameLength, errs)
	b.WebsiteDomains = oltp.NormalizeDomains("websiteDomains", b.WebsiteDomains, errs)
	b.BrandNames = oltp.NormalizeBrandNames("brandNames", b.BrandNames, errs)
	for i := range b.Competitors {
		b.Competitors[i].normalizeAt(fmt.Sprintf("competitors[%d].", i), errs)
	}
}

func (s *server) handleCreateProject(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeNormalized[projectCreateBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	np := oltp.NewProject{
		Name:    in.Name,
		Profile: oltp.BrandLists{WebsiteDomains: in.WebsiteDomains, BrandNames: in.BrandNames},
	}
	for _, c := range in.Competitors {
		np.Competitors = append(np.Competitors, c.competitor())
	}
	p, err := oltp.CreateProject(r.Context(), tx, r.organizationID, np)
	if err != nil {
		return 0, nil, err
	}
	if _, err := s.jobs.InsertTx(r.Context(), tx, jobs.DescribeBrandArgs{ProjectID: p.ID}, nil); err != nil {
		return 0, nil, fmt.Errorf("enqueueing brand description: %w", err)
	}
	return http.StatusCreated, p, nil
}

func (s *server) handleGetProject(r *request) (any, error) {
	id, err := r.pathUUID("projectId", sightline.CodeProjectNotFound)
	if err != nil {
		return nil, err
	}
	return oltp.GetProject(r.Context(), s.pool, r.organizationID, id)
}

type projectRenameBody struct {
	Name string `json:"name" required:"true"`
}

func (b *projectRenameBody) normalize(errs sightline.ValidationErrors) {
	b.Name = oltp.NormalizeName("name", b.Name, oltp.MaxProjectNameLength, errs)
}

func (s *server) handleRenameProject(r *request, tx pgx.Tx) (int, any, error) {
	in, err := decodeNormalized[projectRenameBody](r.body)
	if err != nil {
		return 0, nil, err
	}
	p, err := s.projectForUpdate(r, tx)
	if err != nil {
		return 0, nil, err
	}
	renamed, err := oltp.RenameProject(r.Context(), tx, r.organizationID, p.ID, in.Name)
	return http.StatusOK, renamed, err
}

// projectStatusWrite serves archiving or restoring the path's project:
// change moves it to its new status and answers it.
func projectStatusWrite(change func(ctx context.Context, db oltp.DBTX, organizationID, projectID uuid.UUID) (*oltp.Project, error)) writeFunc {
	return func(r *request, tx pgx.Tx) (int, any, error) {
		id, err := r.pathUUID("projectId", sightline.CodeProjectNotFound)
		if err != nil {
			return 0, nil, err
		}
		p, err := change(r.Context(), tx, r.organizationID, id)
		return http.StatusOK, p, err
	}
}

// projectForUpdate is projectForWrite for writes that update the project
// row itself: it locks the row for that update at once (see
// oltp.LockProjectScope), so that two such writes cannot deadlock.
func (s *server) projectForUpdate(r *request, tx pgx.Tx) (*oltp.ProjectScope, error) {
	id, err := r.pathUUID("projectId", sightline.CodeProjectNotFound)
	if err != nil {
		return nil, err
	}
	p, err := oltp.LockProjectScope(r.Context(), tx, r.organizationID, id)
	if err != nil {
		return nil, err
	}
	return p, p.CheckWritable()
}

func (s *server) handleGetBrandProfile(r *request) (any, error) {
	p, err := s.projectForRead(r)
	if err != nil {
		return nil, err
	}
	return oltp.GetBrandProfile(r.Context(), s.pool, r.organizationID, p.ID)
}

type brandProfileBody struct {
	WebsiteDomains []string `json:"websiteDomains" required:"true" validate:"min=1"`
	BrandNames     []string `json:"brandNames" required:"true" validate:"min=1"`
}

func (b *brandProfileBody) normalize(errs sightline.ValidationErrors) {
	b.WebsiteDomains = oltp.NormalizeDomains("websiteDomains", b.WebsiteDomains, errs)
	b.BrandNames = oltp.NormalizeBrandNames("brandNames", b.BrandNames, errs)
}

func (s *server) handleReplaceBrandProfile(r *request, tx pgx.Tx) (int, any, error) {
	in, p, err := decodeForProject[brandProfileBody](s, r, tx)
	if err != nil {
		return 0, nil, err
	}
	profile, err := oltp.ReplaceBrandLists(r.Context(), tx, r.organizationID, p.ID,
		oltp.BrandLists{WebsiteDomains: in.WebsiteDomains, BrandNames: in.BrandNames})
	return http.StatusOK, profile, err
}

// decodeForProject decodes and normalises the body of a write inside a
// project, then locks the project: a bad body is refused before any lock.
func decodeForProject[T any, PT interface {
	*T
	normalize(sightline.ValidationErrors)
}](s *server, r *request, tx pgx.Tx) (*T, *oltp.ProjectScope, error) {
	in, err := decodeNormalized[T, PT](r.body)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.projectForWrite(r, tx)
	if err != nil {
		return nil, nil, err
	}
	return in, p, nil
}

// decodeNormalized decodes a body like decodeBody, then normalises it in
// place, adding the problems that struct tags cannot express (names that
// are blank once trimmed, values that are no host name). When decoding
// itself fails, the normaliser still runs on a lenient decoding of the same
// body, so that one answer names every field at fault; a field already
// reported, or inside one, keeps only its first problem.
func decodeNormalized[T any, PT interface {
	*T
	normalize(sightline.ValidationErrors)
}](body []byte) (*T, error) {
	in, err := decodeBody[T](body)
	if err == nil {
		errs := sightline.ValidationErrors{}
		PT(in).normalize(errs)
		if err := errs.Err(); err != nil {
			return nil, err
		}
		return in, nil
	}
	var e *sightline.Error
	if !errors.As(err, &e) || e.Code != sightline.CodeValidation || e.Details["body"] != nil {
		return nil, err
	}
	// Value rules also run on the zero value left where an element failed
	// to decode; only the decoding problem is news there.
	for field := range e.Details {
		if within, ok := reportedWithin(field, undecoded(e.Details)); ok && within != field {
			delete(e.Details, field)
		}
	}
	var partial T
	decodeLeniently(body, &partial)
	extra := sightline.ValidationErrors{}
	PT(&partial).normalize(extra)
	for field, problems := range extra {
		if _, ok := reportedWithin(field, e.Details); !ok {
			e.Details[field] = problems
		}
	}
	return nil, err
}

// decodeLeniently fills what it can of v from body, one top-level field at
// a time: a field that fails to decode, reported already, leaves the
// fields after it decoded.
func decodeLeniently(body []byte, v any) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return
	}
	for name, raw := range fields {
		one, err := json.Marshal(map[string]json.RawMessage{name: raw})
		if err == nil {
			_ = json.Unmarshal(one, v) // a field that fails is reported already
		}
	}
}

// reportedWithin returns the field of details that is field or contains it.
func reportedWithin[V any](field string, details map[string]V) (string, bool) {
	for reported := range details {
		if field == reported || strings.HasPrefix(field, reported+".") || strings.HasPrefix(field, reported+"[") {
			return reported, true
		}
	}
	return "", false
}

// undecoded returns the fields whose value could not be decoded.
func undecoded(details map[string][]sightline.FieldError) map[string]bool {
	out := map[string]bool{}
	for field, problems := range details {
		for _, p := range problems {
			if p.Code == sightline.DetailInvalidType {
				out[field] = true
			}
		}
	}
	return out
}

// Schemas.

func domainListSchema() *openapi3.Schema {
	return described(arrayOf(stringSchema()),
		"Hosts: lower-cased, without scheme, port, path or leading 'www.'; a full URL or a bare host is accepted on write. "+
			"Duplicates collapsed, first occurrences kept in order.")
}

func brandNameListSchema() *openapi3.Schema {
	return described(arrayOf(stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxBrandNameLength)),
		"Trimmed; duplicates (case-insensitive) collapsed, the first spelling kept in order.")
}

// domainInputSchema and brandNameInputSchema are the request forms of the lists.
func domainInputSchema() *openapi3.Schema {
	return described(arrayOf(stringSchema()).WithMinItems(1),
		"At least one. Each a full http(s) URL or a bare host name (at least two labels; no IP address, no user@); "+
			"stored as the lower-cased host without port, path or leading 'www.'. Duplicates are collapsed. "+
			"A value that is no host name is invalid_value under its index, e.g. websiteDomains[1].")
}

func brandNameInputSchema() *openapi3.Schema {
	return described(arrayOf(stringSchema().WithMaxLength(oltp.MaxBrandNameLength)).WithMinItems(1),
		"At least one. Each trimmed, then 1 to 255 characters without control characters; duplicates are collapsed "+
			"case-insensitively.")
}

func projectNameSchema() *openapi3.Schema {
	return described(stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxProjectNameLength),
		"Trimmed; 1 to 255 characters, no control characters.")
}

func projectProps(s *server) props {
	return props{
		"id":             uuidSchema(),
		"organizationId": uuidSchema(),
		"name":           stringSchema().WithMinLength(1).WithMaxLength(oltp.MaxProjectNameLength),
		"status":         enumOf("active", "archived"),
		"websiteDomains": described(domainListSchema(), "Empty when the project has no brand profile."),
		"brandNames":     described(brandNameListSchema(), "Empty when the project has no brand profile."),
		"competitors":    described(arrayOf(s.competitorSchema()), "In id (creation) order; empty without a brand profile."),
		"createdAt":      timeSchema(),
		"archivedAt":     described(nullable(timeSchema()), "Null while active."),
	}
}

var projectRequired = []string{"id", "organizationId", "name", "status", "websiteDomains", "brandNames", "competitors", "createdAt", "archivedAt"}

func (s *server) projectSchema() *openapi3.Schema {
	return s.component("Project", object(projectProps(s), projectRequired...))
}

func (s *server) projectRowSchema() *openapi3.Schema {
	p := projectProps(s)
	metric := func(text string) *openapi3.Schema {
		return described(nullable(openapi3.NewFloat64Schema()), text+" Null when not known.")
	}
	p["trackedQueryCount"] = described(integerSchema().WithMin(0), "Counter: the project's tracked queries, active and paused, counted live.")
	p["avgSerpPosition"] = metric("Mean rank of the best own-domain organic result; lower is better.")
	p["avgShoppingPosition"] = metric("Mean rank of the best own-domain shopping offer; lower is better.")
	p["avgMentionPosition"] = metric("Mean rank of the own brand among the brands an answer names; lower is better.")
	p["avgLinkPosition"] = metric("Mean position of the first cited source on an own domain; lower is better.")
	p["mentionRate"] = metric("Percentage of AI answers mentioning the own brand.")
	p["serpRate"] = metric("Percentage of search snapshots with an own-domain organic result.")
	p["shoppingRate"] = metric("Percentage of shopping snapshots with an own-domain offer.")
	p["positivityIndex"] = metric("100 x (positive + 0.5 x neutral) / mentions.")
	p["shareOfVoice"] = metric("The brand's share of the summed mention worth of every brand named, 0 to 100.")
	p["serpPositionStability"] = metric("Population standard deviation of search positions.")
	p["shoppingPositionStability"] = metric("Population standard deviation of shopping positions.")
	p["lastRankDetectedAt"] = described(nullable(timeSchema()), "When the own brand or domain was last ranked. Null when never.")
	required := append(slices.Clone(projectRequired), "trackedQueryCount", "avgSerpPosition", "avgShoppingPosition",
		"avgMentionPosition", "avgLinkPosition", "mentionRate", "serpRate", "shoppingRate", "positivityIndex",
		"shareOfVoice", "serpPositionStability", "shoppingPositionStability", "lastRankDetectedAt")
	return s.component("ProjectListRow", object(p, required...))
}

func projectCreateSchema() *openapi3.Schema {
	return object(props{
		"name":           projectNameSchema(),
		"websiteDomains": domainInputSchema(),
		"brandNames":     brandNameInputSchema(),
		"competitors":    described(arrayOf(competitorInputSchema()), "Optional; created with the project."),
	}, "name", "websiteDomains", "brandNames")
}

func projectRenameSchema() *openapi3.Schema {
	return object(props{"name": projectNameSchema()}, "name")
}

func (s *server) brandProfileSchema() *openapi3.Schema {
	return s.component("BrandProfile", object(props{
		"projectId":      uuidSchema(),
		"websiteDomains": domainListSchema(),
		"brandNames":     brandNameListSchema(),
		"description": described(nullable(stringSchema()),
			"Generated asynchronously; null means not generated yet, which differs from empty."),
		"descriptionGeneratedAt": nullable(timeSchema()),
	}, "projectId", "websiteDomains", "brandNames", "description", "descriptionGeneratedAt"))
}

func brandProfileInputSchema() *openapi3.Schema {
	return object(props{
		"websiteDomains": domainInputSchema(),
		"brandNames":     brandNameInputSchema(),
	}, "websiteDomains", "brandNames")
}

// projectRoutes lists the operations on projects and their brand profiles (spec 4.6).
func (s *server) projectRoutes(projects routeGroup) {
	projects.handle(route{
		method: http.MethodGet, pattern: "/api/v1/organizations/{organizationId}/projects", id: "listProjects",
		summary: "The organization's projects with their per-project metrics",
		description: "Rows are the project record plus its metrics. trackedQueryCount counts the project's tracked queries " +
			"(active and paused) live; the other metrics cover the checks of the last 30 days, are refreshed after each " +
			"completed check, and are null while not known (no check in that window measured them). Sorting by a metric puts " +
			"unknown values last in either order; ties are broken by id. search is a case-insensitive substring of the " +
			"name. In CSV, competitors are listed by name.",
		query: projectListParams(), response: listingSchema(s.projectRowSchema()), csv: true,
		read: s.handleListProjects,
	})
	projects.handle(route{
		method: http.MethodPost, pattern: "/api/v1/organizations/{organizationId}/projects", id: "createProject",
		summary: "Create a project with its brand profile and competitors",
		description: "Creates the project, its brand profile and its competitors in one transaction; no tracked queries, " +
			"checks or scraping. Names are trimmed. websiteDomains accept full http(s) URLs or bare hosts and are stored " +
			"as the lower-cased host without port, path or leading 'www.'; brand names are trimmed; each list collapses " +
			"duplicates (brand names case-insensitively), keeping first occurrences in order. Every field at fault is " +
			"named, e.g. websiteDomains[1] or competitors[0].brandNames[2].",
		body: projectCreateSchema(), status: http.StatusCreated, response: s.projectSchema(),
		errors:    map[int]string{409: "project_is_archived: the organization is archived."},
		writeFunc: s.handleCreateProject,
	})
	projects.handle(route{
		method: http.MethodGet, pattern: projectBase, id: "getProject",
		summary:     "One project with its brand configuration",
		description: "A project without a brand profile reports empty websiteDomains, brandNames and competitors.",
		response:    s.projectSchema(),
		errors:      map[int]string{404: projectNotFound},
		read:        s.handleGetProject,
	})
	projects.handle(route{
		method: http.MethodPatch, pattern: projectBase, id: "renameProject",
		summary: "Rename a project",
		description: "Body name only; websiteDomains, brandNames and competitors are refused as unknown fields (change them " +
			"with the brand-profile and competitor operations). An archived project or organization refuses every rename " +
			"with 409, one to the current name included; a retry under the Idempotency-Key of a rename that succeeded " +
			"replays its 200.",
		body: projectRenameSchema(), response: s.projectSchema(),
		errors:    projectWriteErrors(projectNotFound),
		writeFunc: s.handleRenameProject,
	})
	projects.handle(route{
		method: http.MethodPost, pattern: projectBase + "/archive", id: "archiveProject",
		summary: "Archive a project",
		description: "No body. Nothing is deleted; name, brand-profile, competitor, cluster and tracked-query writes answer " +
			"409 until the project is restored. Recorded as archived by the caller, so a later organization restore leaves " +
			"it archived. Answers the project in its new state.",
		response: s.projectSchema(),
		errors: map[int]string{
			404: projectNotFound,
			409: "status_transition_not_allowed: already archived (a retry with the key that archived it replays the 200 " +
				"instead); project_is_archived: the organization is archived.",
		},
		writeFunc: projectStatusWrite(oltp.ArchiveProject),
	})
	projects.handle(route{
		method: http.MethodPost, pattern: projectBase + "/restore", id: "restoreProject",
		summary: "Restore a project archived on its own",
		description: "No body. No check is run; the record of who archived the project is cleared. Answers the project in " +
			"its new state.",
		response: s.projectSchema(),
		errors: map[int]string{
			404: projectNotFound,
			409: "status_transition_not_allowed: already active (a retry with the key that restored it replays the 200 " +
				"instead); project_archived_by_organization: archived with its organization, restore the organization " +
				"instead; project_is_archived: the organization is archived.",
		},
		writeFunc: projectStatusWrite(oltp.RestoreProject),
	})
	projects.handle(route{
		method: http.MethodGet, pattern: projectBase + "/brand-profile", id: "getBrandProfile",
		summary:  "A project's brand profile",
		response: s.brandProfileSchema(),
		errors:   map[int]string{404: "organization_not_found: no accessible project has the id, or it has no brand profile."},
		read:     s.handleGetBrandProfile,
	})
	projects.handle(route{
		method: http.MethodPut, pattern: projectBase + "/brand-profile", id: "replaceBrandProfile",
		summary: "Replace a brand profile's website domains and brand names",
		description: "Both lists are required and replace the stored ones, normalised as on project creation. The project " +
			"name, the competitors and the description are left as they are; the description is not regenerated. " +
			"Answers the profile as stored.",
		body: brandProfileInputSchema(), response: s.brandProfileSchema(),
		errors:    projectWriteErrors("organization_not_found: no accessible project has the id, or it has no brand profile."),
		writeFunc: s.handleReplaceBrandProfile,
	})
}
