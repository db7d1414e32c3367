//go:build !linux

package main

// scrubEnvironment does nothing outside Linux, where /proc/PID/environ
// does not exist.
func scrubEnvironment() {}
