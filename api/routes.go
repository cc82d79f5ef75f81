package api

// routes mounts every operation of the service: one call per resource,
// whose function sits in the file of that resource's handlers. The
// organization-scoped resources mount their routes through the group of
// their tag in the OpenAPI document (routeGroup).
func (s *server) routes() {
	// Operational endpoints, outside the versioned API and its document.
	s.router.Get("/healthz", s.handleHealthz)
	s.router.Get("/readyz", s.handleReadyz)

	organizations := s.group("organizations")
	projects := s.group("projects")
	clusters := s.group("clusters")
	tracked := s.group("tracked queries")

	s.documentRoutes()
	s.meRoutes()
	s.organizationRoutes(organizations)
	s.previewRoutes()
	s.organizationWriteRoutes()
	s.planRoutes(organizations)
	s.projectRoutes(projects)
	s.competitorRoutes(projects)
	s.clusterRoutes(clusters)
	s.trackedQueryRoutes(tracked)
	s.checkRoutes(tracked)
	s.reportRoutes(tracked)
	s.matchRoutes(tracked)
	s.captureRoutes(s.group("captures"))
	s.analyticsRoutes(s.group("analytics"))
	s.proposalRoutes(clusters, s.group("discovery"))
	s.dashboardRoutes()
}
