package policy

// VarRisk classifies setting the variable name for the commands that run
// after it, as an assignment before a command is classified for that
// command: for callers that follow a shell's state from one command to the
// next (a session's later lines), where a variable set once stays set.
func VarRisk(name string) (Tier, string) {
	return envRisk(name)
}
