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
		oltp.NewPoolCollector(pool), oltp.NewBudgetCollector(pool), jobs.NewQueueCollector(pool))
	registry.MustRegister(olap.ReadCollectors()...)

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
		ProposalWorkers: cfg.ProposalWorkers, Refiner: cfg.Refiner,
		Engine: cfg.Engines, Sink: jobs.AnalyticsSink{Writer: writer}, ClickHouse: ch,
		Registerer: registry,
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
		// Metrics are served apart from the API, by default on loopback
		// only, so that the public port does not show the service's insides.
		if cfg.MetricsAddr != "off" {
			metrics, err := listenHTTP("metrics", cfg.MetricsAddr, api.MetricsHandler(registry), cfg, logger)
			if err != nil {
				return err
			}
			defer metrics.listener.Close()
			listeners = append(listeners, metrics)
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
