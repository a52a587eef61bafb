package api

// SpaceRoute is a route under /v1/spaces/{space} as spaceRoutes declares it, for the external
// tests: its method, pattern and scope.
type SpaceRoute struct{ Method, Pattern, Scope string }

// SpaceRoutes lists spaceRoutes, in order.
func SpaceRoutes() []SpaceRoute {
	out := make([]SpaceRoute, len(spaceRoutes))
	for i, rt := range spaceRoutes {
		out[i] = SpaceRoute{rt.method, rt.pattern, rt.scope}
	}
	return out
}
