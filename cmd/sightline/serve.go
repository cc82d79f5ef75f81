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

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"golang.org/x/sync/errgroup"

	"github.com/sightline/sightline/api"
	"github.com/sightline/sightline/jobs"
	"github.com/sightline/sightline/olap"
	"github.com/sightline/sightline/oltp"
)

// serve runs the API, the workers or both until ctx ends (SIGTERM/SIGINT),
// then shuts down gracefully: the listener closes, in-flight requests
// finish, River finishes running jobs, and the pools close last.
func serve(ctx context.Context, cfg config, stderr io.Writer, withAPI, withWorkers bool) error {
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))

	pool, err := oltp.Connect(ctx, cfg.DatabaseURL, cfg.PGMaxConns)
	if err != nil {
		return err
	}
	defer pool.Close()
	ch, err := olap.Connect(ctx, cfg.ClickHouseURL)
	if err != nil {
		return err
	}
	defer ch.Close()

	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		oltp.NewPoolCollector(pool), jobs.NewQueueCollector(pool))

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
	riverClient, err := jobs.NewClient(pool, jobs.Config{
		Logger: logger, Work: withWorkers, MaxWorkers: cfg.Workers,
		Engine: cfg.Engines, Sink: jobs.AnalyticsSink{Writer: writer}, ClickHouse: ch,
	})
	if err != nil {
		return err
	}

	// Everything that can fail on bad configuration is set up before any
	// goroutine starts, so a failed start leaves nothing running.
	var handler http.Handler
	var listener net.Listener
	if withAPI {
		reader := &olap.Reader{Conn: ch}
		if handler, err = api.NewHandler(api.Deps{
			Logger: logger, Pool: pool, ClickHouse: ch, Jobs: riverClient,
			Registerer: registry, Gatherer: registry,
			Limits: cfg.Limits, MaxBodyBytes: cfg.MaxBodyBytes,
			Reviews:   api.Reviews{URL: cfg.ReviewURL, Locator: reader},
			Captures:  reader,
			Analytics: &olap.Analytics{Conn: ch},
		}); err != nil {
			return err
		}
		if listener, err = net.Listen("tcp", cfg.Listen); err != nil {
			return fmt.Errorf("listening on %s: %w", cfg.Listen, err)
		}
	}

	group, groupCtx := errgroup.WithContext(ctx)
	if withWorkers {
		if err := riverClient.Start(groupCtx); err != nil {
			return fmt.Errorf("starting workers: %w", err)
		}
		logger.Info("workers started", "maxWorkers", cfg.Workers)
		group.Go(func() error {
			<-groupCtx.Done()
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
			defer cancel()
			if err := riverClient.Stop(stopCtx); err != nil {
				return fmt.Errorf("stopping workers: %w", err)
			}
			logger.Info("workers stopped")
			return nil
		})
	}
	if withAPI {
		httpServer := newHTTPServer(handler, cfg, logger)
		logger.Info("api listening", "address", listener.Addr().String())
		group.Go(func() error {
			if err := httpServer.Serve(listener); !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("serving http: %w", err)
			}
			return nil
		})
		group.Go(func() error {
			<-groupCtx.Done()
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
			defer cancel()
			if err := httpServer.Shutdown(stopCtx); err != nil {
				return fmt.Errorf("shutting down http: %w", err)
			}
			logger.Info("api stopped")
			return nil
		})
	}
	return group.Wait()
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
