package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/sightline/sightline"
	"github.com/sightline/sightline/oltp"
)

// checksLocator routes AI answers of one tracked query from a fixed table:
// answer id -> run id (uuid.Nil: known answer without a run). Like the
// analytics store, it knows no answer of any other query.
type checksLocator struct {
	mu      sync.Mutex
	query   uuid.UUID
	answers map[uuid.UUID]uuid.UUID
}

func (l *checksLocator) LocateAIResponse(_ context.Context, _, trackedQueryID, aiResponseID uuid.UUID) (uuid.UUID, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if trackedQueryID != l.query {
		return uuid.Nil, false, nil
	}
	run, ok := l.answers[aiResponseID]
	return run, ok, nil
}

// checksReviewSystem records the forwards it receives and answers status.
type checksReviewSystem struct {
	mu       sync.Mutex
	status   int
	received []map[string]any
	// hold, when set, keeps each forward waiting until it is closed;
	// arrived is told when a held forward has come in.
	hold, arrived chan struct{}
}

func (rs *checksReviewSystem) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	rs.mu.Lock()
	rs.received = append(rs.received, m)
	if r.Header.Get("Idempotency-Key") != "" {
		// net/http resends requests carrying one on a broken connection.
		m["idempotencyKeyHeader"] = true
	}
	status, hold, arrived := rs.status, rs.hold, rs.arrived
	rs.mu.Unlock()
	if hold != nil {
		arrived <- struct{}{}
		<-hold
	}
	if status == checksReviewHangUp {
		// Drop the connection without an answer, as an unreachable system would.
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	w.WriteHeader(status)
}

// checksReviewHangUp makes the review system drop the connection.
const checksReviewHangUp = -1

func (rs *checksReviewSystem) count() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return len(rs.received)
}

func (rs *checksReviewSystem) answer(status int) {
	rs.mu.Lock()
	rs.status = status
	rs.mu.Unlock()
}

// checksReportFixture has a tracked query with one captured answer routed
// to its run.
type checksReportFixture struct {
	*checksFixture
	review  *checksReviewSystem
	locator *checksLocator
	query   uuid.UUID
	answer  uuid.UUID
	runID   uuid.UUID
}

func checksReportSetup(t *testing.T) *checksReportFixture {
	t.Helper()
	return checksReportSetupWith(t, true)
}

// checksReportSetupWith gives the API the review system's URL, or none.
func checksReportSetupWith(t *testing.T, reviewURL bool) *checksReportFixture {
	t.Helper()
	rf := &checksReportFixture{review: &checksReviewSystem{status: http.StatusAccepted},
		locator: &checksLocator{answers: map[uuid.UUID]uuid.UUID{}}}
	review := httptest.NewServer(rf.review)
	t.Cleanup(review.Close)
	rf.checksFixture = checksSetup(t, 10, setupOptions{mount: func(s *server) {
		s.reviews = Reviews{Locator: rf.locator}
		if reviewURL {
			s.reviews.URL = review.URL + "/reports"
		}
	}})
	rf.query = rf.checksFixture.query(rf.project, "best crm", 1, 0)
	rf.runID = rf.run(rf.query, "chatgpt", "pending")
	rf.answer = uuid.Must(uuid.NewV7())
	rf.locator.query = rf.query
	rf.locator.answers[rf.answer] = rf.runID
	return rf
}

func (rf *checksReportFixture) reportPath(query, answer string) string {
	return rf.path(fmt.Sprintf("/%s/responses/%s/report", query, answer))
}

func (rf *checksReportFixture) report(key, path, body, idempotencyKey string) response {
	rf.t.Helper()
	return rf.do(call{method: http.MethodPost, path: path, key: key, body: body,
		header: map[string]string{"Idempotency-Key": idempotencyKey}})
}

func TestChecksReportForwardsOnce(t *testing.T) {
	t.Parallel()
	rf := checksReportSetup(t)
	viewer := rf.user()
	rf.join(rf.org, viewer, sightline.RoleViewer, sightline.MembershipActive)
	viewer = rf.keyFor(viewer, nil, sightline.CapabilityRead, sightline.CapabilityWrite)
	path := rf.reportPath(rf.query.String(), rf.answer.String())
	body := `{"type":"missed_mention","comment":"Acme is missing","missedBrandNames":[" Acme ","acme","Acme Co"]}`

	key := uuid.NewString()
	r := rf.report(viewer.key, path, body, key)
	if r.status != 200 {
		t.Fatalf("report answered %d %s", r.status, r.body)
	}
	m := r.json(t)
	if m["status"] != "accepted" || m["reportId"] == nil {
		t.Fatalf("answer %v", m)
	}
	if rf.review.count() != 1 {
		t.Fatalf("%d forwards", rf.review.count())
	}
	got := rf.review.received[0]
	names, _ := json.Marshal(got["missedBrandNames"])
	if got["type"] != "missed_mention" || got["comment"] != "Acme is missing" || string(names) != `["Acme","Acme Co"]` ||
		got["checkRunId"] != rf.runID.String() || got["aiResponseId"] != rf.answer.String() ||
		got["trackedQueryId"] != rf.query.String() || got["projectId"] != rf.project.String() ||
		got["organizationId"] != rf.org.String() || got["reportedBy"] != viewer.userID.String() ||
		got["reportId"] != m["reportId"] || got["idempotencyKeyHeader"] != nil {
		t.Fatalf("forwarded %v", got)
	}
	// A retry replays the answer and forwards nothing again.
	again := rf.report(viewer.key, path, body, key)
	if again.status != 200 || string(again.body) != string(r.body) || rf.review.count() != 1 {
		t.Fatalf("retry answered %d %s after %d forwards", again.status, again.body, rf.review.count())
	}
	// An empty comment is none.
	if r := rf.report(rf.owner.key, path, `{"type":"other","comment":""}`, uuid.NewString()); r.status != 200 {
		t.Fatalf("report answered %d %s", r.status, r.body)
	}
	if c, present := rf.review.received[1]["comment"]; !present || c != nil {
		t.Fatalf("empty comment forwarded as %v", c)
	}
}

func TestChecksReportOutcomeUnknownIsNeverRetried(t *testing.T) {
	t.Parallel()
	rf := checksReportSetup(t)
	path := rf.reportPath(rf.query.String(), rf.answer.String())
	body := `{"type":"other"}`
	for _, c := range []struct {
		name  string
		setup func()
	}{
		{"refused", func() { rf.review.answer(http.StatusInternalServerError) }},
		{"unreachable", func() { rf.review.answer(checksReviewHangUp) }},
	} {
		c.setup()
		before := rf.review.count()
		key := uuid.NewString()
		assertError(t, rf.report(rf.owner.key, path, body, key), 502, sightline.CodeReviewSystemUnavailable)
		assertError(t, rf.report(rf.owner.key, path, body, key), 409, sightline.CodeOperationOutcomeUncertain)
		if rf.review.count() != before+1 {
			t.Fatalf("%s: %d forwards, want exactly one", c.name, rf.review.count()-before)
		}
	}
}

// The forward runs with no transaction open: no connection or advisory
// lock is held while the review system answers, and a retry meanwhile is
// told the first request is still running.
func TestChecksReportHoldsNoTransactionDuringTheForward(t *testing.T) {
	t.Parallel()
	rf := checksReportSetup(t)
	rf.review.mu.Lock()
	rf.review.hold, rf.review.arrived = make(chan struct{}), make(chan struct{}, 1)
	rf.review.mu.Unlock()
	path := rf.reportPath(rf.query.String(), rf.answer.String())
	body, key := `{"type":"other"}`, uuid.NewString()

	first := make(chan response, 1)
	go func() { first <- rf.report(rf.owner.key, path, body, key) }()
	<-rf.review.arrived
	var advisoryLocks int
	if err := rf.pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
		WHERE l.locktype = 'advisory' AND d.datname = current_database()`).Scan(&advisoryLocks); err != nil {
		t.Fatal(err)
	}
	if advisoryLocks != 0 {
		t.Errorf("%d advisory locks held during the forward", advisoryLocks)
	}
	if busy := rf.pool.Stat().AcquiredConns(); busy != 0 {
		t.Errorf("%d connections held during the forward", busy)
	}
	assertError(t, rf.report(rf.owner.key, path, body, key), 409, sightline.CodeIdempotencyInProgress)
	close(rf.review.hold)
	r := <-first
	if r.status != 200 {
		t.Fatalf("report answered %d %s", r.status, r.body)
	}
	again := rf.report(rf.owner.key, path, body, key)
	if again.status != 200 || string(again.body) != string(r.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry answered %d %s", again.status, again.body)
	}
	if rf.review.count() != 1 {
		t.Fatalf("%d forwards, want 1", rf.review.count())
	}
}

// Without an external review system the report is queued in Sightline's
// own review queue with the answer: a retry replays it and queues nothing
// again, and the queue holds what the reporter sent.
func TestChecksReportWithoutReviewSystemQueuesIt(t *testing.T) {
	t.Parallel()
	rf := checksReportSetupWith(t, false)
	path := rf.reportPath(rf.query.String(), rf.answer.String())
	key := uuid.NewString()
	body := `{"type":"missed_mention","comment":"Acme is missing","missedBrandNames":["Acme","acme"]}`
	r := rf.report(rf.owner.key, path, body, key)
	if r.status != 200 {
		t.Fatalf("report answered %d %s", r.status, r.body)
	}
	again := rf.report(rf.owner.key, path, body, key)
	if again.status != 200 || string(again.body) != string(r.body) {
		t.Fatalf("retry answered %d %s, want %s", again.status, again.body, r.body)
	}
	if rf.review.count() != 0 {
		t.Fatal("forwarded without a review URL")
	}
	// Refused reports queue nothing.
	assertError(t, rf.report(rf.owner.key, path, `{"type":"praise"}`, uuid.NewString()), 400, sightline.CodeValidation)
	assertError(t, rf.report(rf.owner.key, rf.reportPath(rf.query.String(), uuid.NewString()), body, uuid.NewString()),
		404, sightline.CodeOrganizationNotFound)
	reportID := uuid.MustParse(r.json(t)["reportId"].(string))
	queued, err := oltp.AnswerReports(context.Background(), rf.pool, uuid.Nil, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var mine []oltp.AnswerReport
	for _, q := range queued {
		if q.ProjectID == rf.project {
			mine = append(mine, q)
		}
	}
	if len(mine) != 1 {
		t.Fatalf("%d reports queued for the project, want 1", len(mine))
	}
	q := mine[0]
	if q.ReportID != reportID || q.Type != "missed_mention" || q.Comment == nil || *q.Comment != "Acme is missing" ||
		!slices.Equal(q.MissedBrandNames, []string{"Acme"}) || q.TrackedQueryID != rf.query ||
		q.AIResponseID != rf.answer || q.CheckRunID != rf.runID || q.OrganizationID != rf.org ||
		q.ReportedBy != rf.owner.userID || q.ReportedAt.IsZero() {
		t.Fatalf("queued %+v", q)
	}
	// The listing pages by the last id seen: a second report comes after
	// the first, and a page of one holds the first only.
	if second := rf.report(rf.owner.key, path, body, uuid.NewString()); second.status != 200 {
		t.Fatalf("second report answered %d %s", second.status, second.body)
	}
	ids := func(after uuid.UUID, limit int) []uuid.UUID {
		page, err := oltp.AnswerReports(context.Background(), rf.pool, after, limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []uuid.UUID
		for _, r := range page {
			if r.ProjectID == rf.project {
				out = append(out, r.ReportID)
			}
		}
		return out
	}
	all := ids(uuid.Nil, 1000)
	if len(all) != 2 || all[0] != q.ReportID {
		t.Fatalf("queued %v, want the first report then a second", all)
	}
	if rest := ids(q.ReportID, 1000); !slices.Equal(rest, all[1:]) {
		t.Errorf("the page after the first report lists %v, want %v", rest, all[1:])
	}
	if first := ids(uuid.Nil, 1); !slices.Equal(first, all[:1]) {
		t.Errorf("a page of one lists %v, want %v", first, all[:1])
	}
}

func TestChecksReportRouting(t *testing.T) {
	t.Parallel()
	rf := checksReportSetup(t)
	body := `{"type":"other"}`
	noRun := uuid.Must(uuid.NewV7())
	rf.locator.answers[noRun] = uuid.Nil
	unknownRun := uuid.Must(uuid.NewV7())
	rf.locator.answers[unknownRun] = uuid.Must(uuid.NewV7())
	otherQuery := rf.checksFixture.query(rf.project, "other query", 1, 0)

	for _, c := range []struct {
		name   string
		path   string
		status int
		code   sightline.Code
	}{
		{"unknown answer", rf.reportPath(rf.query.String(), uuid.NewString()), 404, sightline.CodeOrganizationNotFound},
		{"malformed answer id", rf.reportPath(rf.query.String(), "nope"), 404, sightline.CodeOrganizationNotFound},
		{"unknown query", rf.reportPath(uuid.NewString(), rf.answer.String()), 404, sightline.CodeOrganizationNotFound},
		{"malformed query id", rf.reportPath("nope", rf.answer.String()), 404, sightline.CodeOrganizationNotFound},
		{"answer without a run", rf.reportPath(rf.query.String(), noRun.String()), 409, sightline.CodeAICheckSessionUnavailable},
		{"run not recorded", rf.reportPath(rf.query.String(), unknownRun.String()), 409, sightline.CodeAICheckSessionUnavailable},
		{"answer of another query", rf.reportPath(otherQuery.String(), rf.answer.String()), 404, sightline.CodeOrganizationNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			assertError(t, rf.report(rf.owner.key, c.path, body, uuid.NewString()), c.status, c.code)
		})
	}
	if rf.review.count() != 0 {
		t.Fatal("a report that could not be routed was forwarded")
	}

	// The key of an unroutable report stays unused: once its answer has a
	// run, the same key forwards the report.
	key := uuid.NewString()
	assertError(t, rf.report(rf.owner.key, rf.reportPath(rf.query.String(), noRun.String()), body, key),
		409, sightline.CodeAICheckSessionUnavailable)
	rf.locator.answers[noRun] = rf.locator.answers[rf.answer]
	if r := rf.report(rf.owner.key, rf.reportPath(rf.query.String(), noRun.String()), body, key); r.status != 200 {
		t.Fatalf("the same key after the answer got a run: %d %s", r.status, r.body)
	}
	if rf.review.count() != 1 {
		t.Fatalf("%d forwards, want 1", rf.review.count())
	}
}

func TestChecksReportRefusals(t *testing.T) {
	t.Parallel()
	rf := checksReportSetup(t)
	path := rf.reportPath(rf.query.String(), rf.answer.String())
	readOnly := rf.keyFor(rf.owner, nil, sightline.CapabilityRead)
	_, otherOrg := rf.fixture.owner()

	assertError(t, rf.report(readOnly.key, path, `{"type":"other"}`, uuid.NewString()), 403, sightline.CodeCapabilityRequired)
	assertError(t, rf.report("", path, `{"type":"other"}`, uuid.NewString()), 401, sightline.CodeUnauthorized)
	assertError(t, rf.report(rf.owner.key, strings.Replace(path, rf.org.String(), otherOrg.String(), 1), `{"type":"other"}`,
		uuid.NewString()), 404, sightline.CodeOrganizationNotFound)

	names := func(n int) string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%q", fmt.Sprintf("Brand %d", i))
		}
		return "[" + strings.Join(out, ",") + "]"
	}
	for _, c := range []struct {
		name, body, field string
		code              sightline.DetailCode
	}{
		{"missing type", `{}`, "type", sightline.DetailMissingField},
		{"unknown type", `{"type":"spam"}`, "type", sightline.DetailInvalidValue},
		{"comment too long", `{"type":"other","comment":"` + strings.Repeat("é", 1001) + `"}`, "comment", sightline.DetailOutOfRange},
		{"too many names", `{"type":"other","missedBrandNames":` + names(51) + `}`, "missedBrandNames", sightline.DetailOutOfRange},
		{"blank name", `{"type":"other","missedBrandNames":["  "]}`, "missedBrandNames[0]", sightline.DetailOutOfRange},
		{"long name", `{"type":"other","missedBrandNames":["` + strings.Repeat("a", 256) + `"]}`, "missedBrandNames[0]", sightline.DetailOutOfRange},
		{"unknown field", `{"type":"other","severity":1}`, "severity", sightline.DetailUnknownField},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := assertError(t, rf.report(rf.owner.key, path, c.body, uuid.NewString()), 400, sightline.CodeValidation)
			if got := detailCodesOf(t, m)[c.field]; len(got) != 1 || got[0] != string(c.code) {
				t.Fatalf("details %v, want %s: %s", detailCodesOf(t, m), c.field, c.code)
			}
		})
	}
	// One answer names every field at fault.
	m := assertError(t, rf.report(rf.owner.key, path, `{"type":"spam","severity":1,"comment":"`+strings.Repeat("é", 1001)+
		`","missedBrandNames":`+names(51)+`}`, uuid.NewString()), 400, sightline.CodeValidation)
	if got, want := detailCodesOf(t, m), map[string][]string{"type": {"invalid_value"}, "severity": {"unknown_field"},
		"comment": {"out_of_range"}, "missedBrandNames": {"out_of_range"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("details %v, want %v", got, want)
	}
	// 50 distinct names, repeated in another case, are fine; 1000 characters too.
	dupes := strings.TrimSuffix(names(50), "]") + `,"BRAND 1","brand 2"]`
	if r := rf.report(rf.owner.key, path, `{"type":"missed_mention","missedBrandNames":`+dupes+`}`, uuid.NewString()); r.status != 200 {
		t.Fatalf("50 distinct names answered %d %s", r.status, r.body)
	}
	if r := rf.report(rf.owner.key, path, `{"type":"other","comment":"`+strings.Repeat("é", 1000)+`"}`, uuid.NewString()); r.status != 200 {
		t.Fatalf("a 1000-character comment answered %d %s", r.status, r.body)
	}

	rf.exec(`UPDATE projects SET status = 'archived', archived_by = 'caller', archived_at = now() WHERE id = $1`, rf.project)
	assertError(t, rf.report(rf.owner.key, path, `{"type":"other"}`, uuid.NewString()), 409, sightline.CodeProjectIsArchived)
	if rf.review.count() != 2 {
		t.Fatalf("%d forwards, want the two accepted reports", rf.review.count())
	}
}
