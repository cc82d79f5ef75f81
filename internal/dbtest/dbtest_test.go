package dbtest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/dbtest"
)

func TestServerNewDatabase(t *testing.T) {
	t.Setenv("DBTEST_SERVER_URL", "postgres://u@127.0.0.1:5432/main?sslmode=disable")
	var created, migrated, dropped []string
	s := dbtest.Server{
		Engine: "fake", Env: "DBTEST_SERVER_URL", DefaultURL: "postgres://unused/",
		CreateFunc: func(_ context.Context, serverURL, name string) error {
			created = append(created, serverURL+" "+name)
			return nil
		},
		MigrateFunc: func(_ context.Context, dbURL string) error {
			migrated = append(migrated, dbURL)
			return nil
		},
		DropFunc: func(_ context.Context, serverURL, name string) error {
			dropped = append(dropped, serverURL+" "+name)
			return nil
		},
	}
	var dbURL string
	t.Run("test", func(t *testing.T) { dbURL = s.NewDatabase(t) })

	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !strings.HasPrefix(name, "test_") || u.Host != "127.0.0.1:5432" || u.RawQuery != "sslmode=disable" {
		t.Errorf("NewDatabase = %s, want the server's URL naming a test_ database", dbURL)
	}
	want := "postgres://u@127.0.0.1:5432/main?sslmode=disable " + name
	if len(created) != 1 || created[0] != want || len(dropped) != 1 || dropped[0] != want {
		t.Errorf("created %q and dropped %q, want %q once each", created, dropped, want)
	}
	if len(migrated) != 1 || migrated[0] != dbURL {
		t.Errorf("migrated %q, want %q", migrated, dbURL)
	}
}

func TestServerURL(t *testing.T) {
	s := dbtest.Server{Env: "DBTEST_SERVER_URL", DefaultURL: "http://127.0.0.1:18123/default"}
	t.Setenv("DBTEST_SERVER_URL", "")
	if got := s.URL(); got != s.DefaultURL {
		t.Errorf("URL() with the variable empty = %s, want %s", got, s.DefaultURL)
	}
	t.Setenv("DBTEST_SERVER_URL", "http://127.0.0.1:8123/other")
	if got := s.URL(); got != "http://127.0.0.1:8123/other" {
		t.Errorf("URL() = %s, want the variable's value", got)
	}
}
