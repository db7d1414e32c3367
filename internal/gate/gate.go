// Package gate owns the cryptographic core of the approval gate: the digest
// that binds an approval to one exact call, the single-use approval tokens of
// the token mechanism, and the sealed request_state of the input-required
// round trip.
//
// Nothing here decides whether a call needs approval or talks to a human; the
// server does that and uses these pieces so that what was approved is exactly
// what runs, once.
package gate

import "errors"

// Errors returned by Tokens.Redeem and Sealer.Open. Callers branch on them to
// tell the agent why its approval was not accepted.
var (
	// ErrTooManyPending means Issue refused because MaxPending approvals are
	// outstanding and none has expired.
	ErrTooManyPending = errors.New("gate: too many pending approvals")
	// ErrUnknownToken means the token was never issued, was already used,
	// or was burned.
	ErrUnknownToken = errors.New("gate: unknown approval token")
	// ErrExpired means the token or state was genuine but its time ran out.
	ErrExpired = errors.New("gate: approval expired")
	// ErrMismatch means the token or state does not belong to this call.
	ErrMismatch = errors.New("gate: approval does not match the call")
)
