package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotUnknownProgramsToldToRun: a program the classifier does not
// know, told by a run verb (run, exec, execute, serve, render, install…)
// to run or install a file or directory, runs what is there — coverage run,
// streamlit run, uv run, hatch run, pdm run, k6 run, jupyter execute,
// quarto render's code cells, runc run's bundle, uv tool install's build
// — so such a path under a temporary directory, or a climb to one, is
// tier 3 as python3 /tmp/x.py and a build pointed there are, on this
// machine and an SSH host. What follows another verb, or a --source or
// --output, may be data, and keeps tier 2; so does the operator's file.
func TestBlindSpotUnknownProgramsToldToRun(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/private/tmp/x", "/tmp/x/../y", "/TMP/x", "../../../tmp/x",
		"~/../../tmp/x", "/run/lock/x"} {
		for _, f := range []string{"coverage run %s/a.py", "streamlit run %s/a.py", "uv run %s/a.py", "hatch run %s/a.py",
			"pdm run %s/a.py", "k6 run %s/l.js", "jupyter execute %s/n.ipynb", "quarto render %s/d.qmd", "runc run -b %s c",
			"runc run --bundle=%s c", "runc run -b%s c", "sometool --verbose run %s", "sometool run --file %s/f", "sometool exec %s/x",
			"sometool serve %s", "sometool start %s/app.js", "sometool eval %s/e.lisp", "sometool load %s/p.so", "sometool source %s/s",
			"sometool launch %s/a.desktop", "sometool test %s/t", "uv tool install %s", "uv tool run --from %s foo", "uvx --from %s foo",
			"uvx %s/tool", "code --install-extension %s/x.vsix", "code --install-extension=%s/x.vsix", "sometool install %s/x.whl",
			"sudo sometool run %s/a", "timeout 9 coverage run %s/a.py", "env A=1 streamlit run %s/a.py", "nice k6 run %s/l.js"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"the operator's script", "coverage run /srv/app/a.py", TierMutate},
		{"relative", "streamlit run app.py", TierMutate},
		{"a named package", "sometool install left-pad", TierMutate},
		{"lint", "shellcheck /tmp/x.sh", TierMutate},
		{"another verb", "sometool lint /tmp/x", TierMutate},
		{"verb past the second operand", "sometool a b run /tmp/x", TierMutate},
		{"source option", "sometool --source /tmp/x/a", TierMutate},
		{"output", "sometool run --output /srv/o x", TierMutate},
		{"run alone", "sometool run", TierMutate},
		{"install from the operator's", "code --install-extension /srv/x.vsix", TierMutate},
	})
}
