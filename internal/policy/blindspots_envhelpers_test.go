package policy

import "testing"

// TestBlindSpotHelperEnv: variables that name a helper program, a
// credential file whose entries name one, or the .NET runtime's hooks,
// under names no naming convention catches, make a read run code: mtr's
// probe helper, podman's auth file (credHelpers), the AWS credentials
// file (credential_process), Google's credential file, go's GOAUTH and
// dotnet's startup hooks. Set in every way bash sets a variable.
func TestBlindSpotHelperEnv(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"MTR_PACKET=/tmp/x mtr -r host",
		"MTR_PACKET=/tmp/x mtr --report host",
		"env MTR_PACKET=/tmp/x mtr -r host",
		"sudo MTR_PACKET=/tmp/x mtr -r host",
		"export MTR_PACKET=/tmp/x; mtr -r host",
		": ${MTR_PACKET:=/tmp/x}; mtr -r host",
		"read MTR_PACKET < /tmp/p; export MTR_PACKET; mtr -r host",
		"REGISTRY_AUTH_FILE=/tmp/a podman search x",
		"declare -x REGISTRY_AUTH_FILE=/tmp/a; podman search x",
		"AWS_SHARED_CREDENTIALS_FILE=/tmp/c terraform output",
		"GOOGLE_APPLICATION_CREDENTIALS=/tmp/c terraform output",
		"GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1 terraform output",
		"GOAUTH='command /tmp/x' go list -m -versions golang.org/x/text",
		"GOAUTH='git /tmp/r' go list -m -json all",
		"env GOAUTH=\"command $X\" go list -m all",
		"DOTNET_STARTUP_HOOKS=/tmp/x.dll dotnet --version",
		"DOTNET_ADDITIONAL_DEPS=/tmp/d dotnet --version",
		"DOTNET_SHARED_STORE=/tmp/d dotnet --version",
		"DOTNET_GCPath=/tmp/x.so dotnet --version",
		"export DOTNET_DiagnosticPorts=/tmp/s; dotnet --version",
		"COMPlus_GCName=x dotnet --version",
		"CORECLR_ENABLE_PROFILING=1 CORECLR_PROFILER_PATH=/tmp/x.so dotnet --version",
		"CORECLR_PROFILER_PATH_64=/tmp/x.so dotnet --version",
	))
	runExactHosts(t, p, []exactCase{
		{"mtr", "mtr -r host", TierRead},
		{"podman search", "podman search x", TierRead},
		{"go list -m", "go list -m all", TierRead},
		{"dotnet version", "dotnet --version", TierRead},
		{"dotnet root kept", "DOTNET_ROOT=/usr/share/dotnet dotnet --version", TierRead},
	})
}
