package policy

// processQuery reports whether c is chrt, taskset, ionice or prlimit asked
// only to print a running process's setting, and names the setting. Each
// prints when given a process and no new value, and sets when given one:
// chrt -p PID prints the policy and chrt -p PRIO PID sets it; taskset -p
// PID prints the affinity and taskset -p MASK PID sets it; ionice -p PID
// prints the class and -c or -n sets it; prlimit --pid PID prints the
// limits and a resource option with a value (--nofile=1024) sets it.
// Only the options listed here are accepted: anything else is left to the
// wrapper rules.
func processQuery(c *call) (string, bool) {
	words := argVals(c.args)
	switch c.name {
	case "chrt":
		ops, _, ok := c.readOpts(optSpec{flags: "apvmhV",
			longFlags: set(`--all-tasks --pid --verbose --max --help --version`)})
		if !ok {
			return "", false
		}
		if len(ops) == 1 && allDigits(ops[0]) && hasFlag(words, 'p', "--pid") {
			return "chrt -p: prints a process's scheduling policy", true
		}
		if len(ops) == 0 && hasFlag(words, 'm', "--max") {
			return "chrt -m: prints the priority ranges", true
		}
	case "taskset":
		ops, _, ok := c.readOpts(optSpec{flags: "apchV",
			longFlags: set(`--all-tasks --pid --cpu-list --help --version`)})
		if ok && len(ops) == 1 && allDigits(ops[0]) && hasFlag(words, 'p', "--pid") {
			return "taskset -p: prints a process's CPU affinity", true
		}
	case "ionice":
		// -p, -P and -u take the first id; more ids may follow.
		ops, _, ok := c.readOpts(optSpec{flags: "thV", valueShort: "pPu",
			longFlags: set(`--ignore --help --version`), longVals: set(`--pid --pgid --uid`)})
		if !ok || !(hasFlag(words, 'p', "--pid") || hasFlag(words, 'P', "--pgid") || hasFlag(words, 'u', "--uid")) {
			return "", false
		}
		for _, o := range ops {
			if !allDigits(o) {
				return "", false
			}
		}
		return "ionice -p: prints a process's I/O class", true
	case "prlimit":
		// A resource option alone selects the limit to print; with a
		// value (--nofile=1024, -n1024) it sets it, and readOpts refuses
		// both spellings.
		ops, _, ok := c.readOpts(optSpec{flags: "cdefilmnqrstuvxyhV", valueShort: "po",
			longFlags: set(`--core --data --nice --fsize --sigpending --memlock --rss --nofile --msgqueue --rtprio
				--stack --cpu --nproc --as --locks --rttime --noheadings --raw --verbose --help --version`),
			longVals: set(`--pid --output`)})
		if ok && len(ops) == 0 && hasFlag(words, 'p', "--pid") {
			return "prlimit --pid: prints a process's limits", true
		}
	}
	return "", false
}
