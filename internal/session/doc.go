// Package session owns warden's interactive sessions: programs started in a
// real pseudo-terminal (or, for long background work, with pipes) that an
// agent drives over many calls — send input, read what came back, resize,
// signal, close.
//
// A [Registry] holds the live sessions. It bounds how many exist, how much
// output each keeps (a fixed ring buffer per session, drained continuously so
// memory stays flat whatever the program prints), how long each may sit idle
// and how long each may live. Every session is recorded as an asciicast v2
// file, itself size-bounded. Closing a session, sweeping an expired one or
// shutting the registry down kills the session's whole process tree.
//
// What the agent reads has terminal escape sequences stripped by default (see
// [Stripper]); raw reads return the bytes as sent, made valid UTF-8.
//
// Where a session runs is a seam: a [Starter] turns a [Spec] into a running
// [Process]. The local starter (PTY or pipes) lives here; a remote one (an
// SSH PTY) implements the same two interfaces elsewhere.
//
// Policy and auditing are not this package's business: the caller (the MCP
// session tools, through warden's relay pipeline) checks and records every
// call before it reaches the Registry.
package session
