package policy

// call is one program invocation being classified.
type call struct {
	e    *eval
	name string // resolved program name
	path string // as written
	args []arg  // arguments after the program
	ctx  cctx
}

// callChunk is how many calls eval.calls allocates at a time.
const callChunk = 4

// pushCall returns storage for the call of one program, which popCall
// releases when program returns: nothing keeps a *call past that, so the
// storage is reused by the next command instead of allocated per command.
// The chunks never move, so a nested program's push leaves the pointers
// its callers hold valid.
func (e *eval) pushCall() *call {
	i := e.ncalls
	if i/callChunk == len(e.calls) {
		e.calls = append(e.calls, new([callChunk]call))
	}
	e.ncalls++
	return &e.calls[i/callChunk][i%callChunk]
}

func (e *eval) popCall() { e.ncalls-- }

func (c *call) vals() []string { return argVals(c.args) }

func argVals(args []arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.val
	}
	return out
}

// run classifies a command that c runs (a wrapper's payload).
func (c *call) run(args []arg) {
	ctx := c.ctx
	ctx.depth++
	if ctx.depth > maxDepth {
		c.e.note(TierDestructive, false, "wrappers nested too deeply")
		return
	}
	ctx.execd = true
	c.e.simple(args, ctx, "")
}

// opaquePayload records a payload the classifier cannot read (an
// interpreter program) and scans its text with the deny matchers.
func (e *eval) opaquePayload(text, what string) {
	e.opaque = true
	e.scanText(text)
	e.note(TierDestructive, false, "%s cannot be classified", what)
}
