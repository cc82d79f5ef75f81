// Package drive is what the HTTP load drivers share: their command line, a
// client for an API on this machine, and phases of load that concurrent
// workers send.
package drive
