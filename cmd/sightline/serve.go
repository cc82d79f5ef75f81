package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/riverqueue/river"
	"golang.org/x/sync/errgroup"

	"github.com/sightline/sightline/api"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// serve runs the API, the workers or both until ctx ends (SIGTERM/SIGINT),
// then shuts down gracefully: the listener closes and in-flight requests
// finish; River stops fetching jobs and lets the running ones finish for
// up to cfg.SoftStopTimeout, then cancels them (a cancelled check keeps
// the answers it was paid for and resumes on another worker); the
// capture writer flushes, and the pools close last.
func serve(ctx context.Context, cfg config, stderr io.Writer, withAPI, withWorkers bool) error {
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))

	pool, err := oltp.Connect(ctx, cfg.DatabaseURL, cfg.PGMaxConns)
	if err != nil {
		return err
	}
	defer pool.Close()
	registry := prometheus.NewRegistry()
	ch, err := olap.Connect(ctx, cfg.ClickHouseURL, olap.NewReadStats(registry))
	if err != nil {
		return err
	}
	defer ch.Close()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		oltp.NewPoolCollector(pool), oltp.NewBudgetCollector(pool), jobs.NewQueueCollector(pool),
		jobs.NewCheckAnswersCollector(pool))

	// One writer batches the captures of every check this process runs; it
	// is closed after River stops, so the last passes are flushed.
	writer := olap.NewWriter(ch, olap.WriterOptions{Registerer: registry})
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
		defer cancel()
		if err := writer.Close(closeCtx); err != nil {
			logger.Error("closing the capture writer", "error", err)
		}
	}()
	limits := jobs.NewProviderLimits(cfg.Providers, cfg.ProviderLimits, registry)
	riverClient, err := jobs.NewClient(pool, jobs.Config{
		Logger: logger, Work: withWorkers, CheckWorkers: cfg.CheckWorkers, PassConcurrency: cfg.PassConcurrency,
		MaintenanceWorkers: cfg.MaintenanceWorkers, ProposalWorkers: cfg.ProposalWorkers, Refiner: cfg.Refiner,
		Limits: limits, Registerer: registry,
		Engine: cfg.Engines, Sink: jobs.AnalyticsSink{Writer: writer}, ClickHouse: ch,
	})
	if err != nil {
		return err
	}

	// Everything that can fail on bad configuration is set up before any
	// goroutine starts, so a failed start leaves nothing running.
	var listeners []httpListener
	if withAPI {
		var handler http.Handler
		reader := &olap.Reader{Conn: ch}
		if handler, err = api.NewHandler(api.Deps{
			Logger: logger, Pool: pool, ClickHouse: ch, Jobs: riverClient,
			Registerer: registry,
			Limits:     cfg.Limits, MaxBodyBytes: cfg.MaxBodyBytes,
			Reviews:   api.Reviews{URL: cfg.ReviewURL, Locator: reader},
			Captures:  reader,
			Analytics: &olap.Analytics{Conn: ch},
		}); err != nil {
			return err
		}
		public, err := listenHTTP("api", cfg.Listen, handler, cfg, logger)
		if err != nil {
			return err
		}
		defer public.listener.Close()
		listeners = append(listeners, public)
	}
	// Metrics are served apart from the API, by default on loopback only, so
	// that the public port does not show the service's insides; a worker
	// process serves its checks' and engines' figures the same way.
	if cfg.MetricsAddr != "off" {
		metrics, err := listenHTTP("metrics", cfg.MetricsAddr, api.MetricsHandler(registry), cfg, logger)
		if err != nil {
			return err
		}
		defer metrics.listener.Close()
		listeners = append(listeners, metrics)
	}

	group, groupCtx := errgroup.WithContext(ctx)
	if withWorkers {
		// River cancels every running job when its start context ends, so
		// it gets one that does not: stopWorkers decides when they stop.
		if err := riverClient.Start(context.WithoutCancel(groupCtx)); err != nil {
			return fmt.Errorf("starting workers: %w", err)
		}
		logger.Info("workers started", "checkWorkers", cfg.CheckWorkers, "maintenanceWorkers", cfg.MaintenanceWorkers,
			"proposalWorkers", cfg.ProposalWorkers)
		group.Go(func() error {
			limits.Run(groupCtx, pool, logger)
			return nil
		})
		group.Go(func() error {
			<-groupCtx.Done()
			return stopWorkers(ctx, riverClient, cfg, logger)
		})
	}
	for _, l := range listeners {
		logger.Info(l.name+" listening", "address", l.listener.Addr().String())
		group.Go(func() error {
			if err := l.server.Serve(l.listener); !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("serving %s: %w", l.name, err)
			}
			return nil
		})
		group.Go(func() error {
			<-groupCtx.Done()
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
			defer cancel()
			if err := l.server.Shutdown(stopCtx); err != nil {
				return fmt.Errorf("shutting down %s: %w", l.name, err)
			}
			logger.Info(l.name + " stopped")
			return nil
		})
	}
	return group.Wait()
}

// stopWorkers stops River softly: no more jobs are fetched and the running
// ones have cfg.SoftStopTimeout to finish; then they are cancelled and
// given cfg.ShutdownTimeout to record where they stopped.
func stopWorkers(ctx context.Context, client *river.Client[pgx.Tx], cfg config, logger *slog.Logger) error {
	softCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.SoftStopTimeout)
	defer cancel()
	err := client.Stop(softCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("jobs still running after the soft stop timeout; cancelling them",
			"softStopTimeout", cfg.SoftStopTimeout)
		hardCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
		defer cancel()
		err = client.StopAndCancel(hardCtx)
	}
	if err != nil {
		return fmt.Errorf("stopping workers: %w", err)
	}
	logger.Info("workers stopped")
	return nil
}

// httpListener is one HTTP server of the process and where it listens.
type httpListener struct {
	name     string
	server   *http.Server
	listener net.Listener
}

func listenHTTP(name, addr string, handler http.Handler, cfg config, logger *slog.Logger) (httpListener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return httpListener{}, fmt.Errorf("listening on %s for %s: %w", addr, name, err)
	}
	return httpListener{name: name, server: newHTTPServer(handler, cfg, logger), listener: l}, nil
}

// newHTTPServer bounds every phase of a connection, so that a client that
// sends or reads slowly cannot hold a request open: headers within 10 s,
// the whole request within 60 s, and the answer written within
// cfg.WriteTimeout of the request's headers (SIGHTLINE_WRITE_TIMEOUT).
func newHTTPServer(handler http.Handler, cfg config, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}
