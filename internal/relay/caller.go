package relay

import "context"

type callerKey struct{}

// withCaller returns ctx carrying the identity of the call's caller, for
// reads whose answer depends on who asks.
func withCaller(ctx context.Context, identity string) context.Context {
	return context.WithValue(ctx, callerKey{}, identity)
}

// Caller returns the identity of the caller of the resource read or prompt
// fetch that ctx belongs to, as the pipeline identified it; ok is false
// outside the pipeline.
func Caller(ctx context.Context) (identity string, ok bool) {
	identity, ok = ctx.Value(callerKey{}).(string)
	return identity, ok
}
