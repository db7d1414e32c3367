package declare

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
)

// constraintCost bounds the work of one constraint evaluation, so a
// constraint over a long value cannot stall a call.
const constraintCost = 1_000_000

// constraintTimeout bounds one constraint's wall-clock time.
const constraintTimeout = time.Second

// Constraint is one compiled CEL expression that must hold for a call to
// run.
type Constraint struct {
	Expr string
	prg  cel.Program
}

func celType(t ParamType) *cel.Type {
	switch t {
	case TypeInteger:
		return cel.IntType
	case TypeNumber:
		return cel.DoubleType
	case TypeBoolean:
		return cel.BoolType
	case TypeArray:
		return cel.ListType(cel.StringType)
	}
	return cel.StringType
}

// compileConstraint type-checks expr against the typed parameters; it must
// be a boolean expression.
func compileConstraint(expr string, params []*Param) (*Constraint, error) {
	opts := make([]cel.EnvOption, 0, len(params))
	for _, p := range params {
		opts = append(opts, cel.Variable(p.Name, celType(p.Type)))
	}
	env, err := cel.NewEnv(opts...)
	if err != nil {
		return nil, fmt.Errorf("cel: %v", err)
	}
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, fmt.Errorf("cel: %v", iss.Err())
	}
	if ast.OutputType() != cel.BoolType {
		return nil, fmt.Errorf("cel: %q is of type %s, want bool", expr, ast.OutputType())
	}
	prg, err := env.Program(ast, cel.CostLimit(constraintCost), cel.InterruptCheckFrequency(100))
	if err != nil {
		return nil, fmt.Errorf("cel: %v", err)
	}
	return &Constraint{Expr: expr, prg: prg}, nil
}

// ErrConstraint is wrapped by a failed constraint check.
var ErrConstraint = errors.New("constraint failed")

// Check evaluates every constraint over the typed values and names the
// first that does not hold.
func (t *Tool) Check(ctx context.Context, vals map[string]any) error {
	ctx, cancel := context.WithTimeout(ctx, constraintTimeout)
	defer cancel()
	act := vals
	for _, c := range t.Constraints {
		out, _, err := c.prg.ContextEval(ctx, act)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrConstraint, c.Expr, err)
		}
		if out != types.True {
			return fmt.Errorf("%w: %s", ErrConstraint, c.Expr)
		}
	}
	return nil
}
