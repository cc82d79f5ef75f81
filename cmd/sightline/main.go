// Command sightline is the whole service in one binary:
//
//	sightline serve     the HTTP API
//	sightline worker    River workers: checks, refreshes, cascades, maintenance
//	sightline run       both in one process
//	sightline migrate   apply Postgres, River and ClickHouse migrations
//	sightline admin ... users, organizations, memberships, keys, subscriptions
//	sightline backfill  simulated check history for an organization
//	sightline extract   the extraction of one answer, JSON in, JSON out
//
// Configuration comes from the environment; see config.go and README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sightline:", err)
		var coded interface{ ExitCode() int }
		if errors.As(err, &coded) {
			os.Exit(coded.ExitCode())
		}
		os.Exit(1)
	}
}

const usage = `usage: sightline <command> [arguments]

commands:
  serve     serve the HTTP API
  worker    run background workers
  run       serve the API and run workers in one process
  migrate   apply every pending migration (Postgres, River, ClickHouse)
  admin     manage users, organizations, memberships, keys and subscriptions
  backfill  store simulated check history (default: 90 days of the demo organization)
  extract   print what Sightline extracts from one answer (JSON on stdin)
`

// run is main without the process: its arguments, environment and standard
// streams are passed in, so tests drive every subcommand like a user would
// without touching the test process's own.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command given")
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	switch args[0] {
	case "serve":
		return serve(ctx, cfg, stderr, true, false)
	case "worker":
		return serve(ctx, cfg, stderr, false, true)
	case "run":
		return serve(ctx, cfg, stderr, true, true)
	case "migrate":
		return migrate(ctx, cfg, stdout)
	case "admin":
		return admin(ctx, cfg, args[1:], stdout)
	case "backfill":
		return backfill(ctx, cfg, args[1:], stdout, stderr)
	case "extract":
		return extract(ctx, getenv, stdin, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}
