package api

// routes mounts every operation of the service: one call per resource,
// whose function sits in the file of that resource's handlers.
func (s *server) routes() {
	// Operational endpoints, outside the versioned API and its document.
	s.router.Get("/healthz", s.handleHealthz)
	s.router.Get("/readyz", s.handleReadyz)

	s.documentRoutes()
	s.meRoutes()
	s.organizationRoutes()
	s.previewRoutes()
	s.organizationWriteRoutes()
	s.planRoutes()
	s.projectRoutes()
	s.competitorRoutes()
	s.clusterRoutes()
	s.trackedQueryRoutes()
	s.checkRoutes()
	s.reportRoutes()
	s.matchRoutes()
	s.captureRoutes()
	s.analyticsRoutes()
	s.proposalRoutes()
	s.dashboardRoutes()
}
