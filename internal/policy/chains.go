package policy

import "mvdan.cc/sh/v3/syntax"

// binary walks && || | |& chains. Left-deep chains are walked iteratively
// so a long pipeline cannot deepen the recursion.
func (e *eval) binary(c *syntax.BinaryCmd, ctx cctx, sc *scope) {
	isPipe := func(op syntax.BinCmdOperator) bool { return op == syntax.Pipe || op == syntax.PipeAll }
	pipe := isPipe(c.Op)
	var buf [16]*syntax.Stmt // most chains fit; a longer one grows on the heap
	chain := append(buf[:0], c.Y)
	x := c.X
	op := c.Op // the one operator of a chain of && alone or || alone, or 0
	for {
		bc, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || len(x.Redirs) > 0 || x.Negated || x.Background || isPipe(bc.Op) != pipe {
			break
		}
		if bc.Op != op {
			op = 0
		}
		chain = append(chain, bc.Y)
		x = bc.X
	}
	chain = append(chain, x)
	// chain is right to left; walk it left to right. A pipeline's
	// commands run side by side, so what one runs may come after what a
	// later one writes: their runs meet every write, as a loop's do.
	in := ctx.stdin
	if pipe {
		e.loops++
		defer func() { e.loops-- }()
	}
	for i := len(chain) - 1; i >= 0; i-- {
		s := chain[i]
		sctx := ctx
		if pipe {
			sctx.stdin = in
			in = e.pipeOutput(s, sctx, sc)
		}
		e.stmt(s, sctx, sc)
		// [ -n "$D" ] && rm -rf "$D"/*, [ -z "$D" ] || rm -rf "$D"/*:
		// what follows runs only where the test said D is set.
		switch op {
		case syntax.AndStmt:
			ctx.guards = ctx.guards.with(testedSet(s, true))
		case syntax.OrStmt:
			ctx.guards = ctx.guards.with(testedSet(s, false))
		}
	}
	if pipe {
		e.pipedNames(chain, ctx, sc)
		e.pipedWatchdog(chain, ctx, sc)
		e.pipedKill(chain, ctx, sc)
		e.pipedRemove(chain, ctx, sc)
		e.pipedCopy(chain)
	}
}
