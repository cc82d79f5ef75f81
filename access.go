package sightline

import "slices"

// Role is a member's role in an organization. Roles are ordered: each one
// allows everything the roles below it allow.
type Role string

// The roles, lowest first.
const (
	RoleViewer  Role = "viewer"
	RoleManager Role = "manager"
	RoleOwner   Role = "owner"
)

// Roles lists every role, lowest first.
var Roles = []Role{RoleViewer, RoleManager, RoleOwner}

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// AtLeast reports whether r allows everything min allows.
func (r Role) AtLeast(min Role) bool {
	return r.Valid() && slices.Index(Roles, r) >= slices.Index(Roles, min)
}

// Capability is what an API key may be used for, independent of its owner's role.
type Capability string

// The capabilities of spec part 5.2.
const (
	CapabilityRead               Capability = "read"
	CapabilityWrite              Capability = "write"
	CapabilityOrganizationManage Capability = "organization:manage"
)

// Capabilities lists every capability in a stable order.
var Capabilities = []Capability{CapabilityRead, CapabilityWrite, CapabilityOrganizationManage}

// Valid reports whether c is a known capability.
func (c Capability) Valid() bool { return slices.Contains(Capabilities, c) }

// MembershipStatus says whether a membership currently grants access.
type MembershipStatus string

// Membership statuses: only active memberships grant access.
const (
	MembershipActive    MembershipStatus = "active"
	MembershipSuspended MembershipStatus = "suspended"
)
