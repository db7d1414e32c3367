package policy

import "strings"

// Variables that name a helper program, or a credential file whose
// entries name one, under names no convention in envnames.go catches
// and no list in programs.go holds; each runs code on a call that only
// reads. mtr runs MTR_PACKET as its probe helper (mtr -r host).
// REGISTRY_AUTH_FILE is podman's and skopeo's auth file, whose credHelpers
// and credsStore name the docker-credential-* program podman search runs.
// AWS_SHARED_CREDENTIALS_FILE holds credential_process as AWS_CONFIG_FILE
// does, for the AWS SDKs terraform's s3 backend uses on terraform output;
// GOOGLE_APPLICATION_CREDENTIALS can name an executable credential source,
// which GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES lets run. GOAUTH is the
// command (or the git repository, whose credential.helper runs) the go
// command asks for credentials when go list -m fetches a module's versions.
// RESTIC_REPOSITORY_FILE names restic's repository as --repository-file
// does: sftp:-oProxyCommand=…:/r in it is ssh's option. FreeBSD's pkg
// takes every pkg.conf setting from the variable of its name, the
// plugins it loads and the ports tree it runs make in among them
// (pkgCodeKeys).
var helperEnv = set(`MTR_PACKET REGISTRY_AUTH_FILE AWS_SHARED_CREDENTIALS_FILE GOOGLE_APPLICATION_CREDENTIALS
	GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES GOAUTH RESTIC_REPOSITORY_FILE PLUGINS PLUGINS_DIR PLUGINS_CONF_DIR PKG_ENABLE_PLUGINS PORTSDIR`)

// runtimeEnvPrefixes are the .NET runtime's and host's variables: among
// them DOTNET_STARTUP_HOOKS (assemblies run before Main, in dotnet
// --version too, whose SDK is managed code), DOTNET_ADDITIONAL_DEPS and
// DOTNET_SHARED_STORE (where assemblies load from), DOTNET_GCPath (a
// shared object), DOTNET_DiagnosticPorts (a socket whose listener can
// apply a startup hook), CORECLR_PROFILER_PATH (a profiler library), and
// COMPlus_ the old prefix of DOTNET_'s runtime knobs. The roots and paths
// toolchainVar reads keep its finer answer.
var runtimeEnvPrefixes = []string{"DOTNET_", "COMPlus_", "COMPLUS_", "CORECLR_"}

// Homebrew's brew.sh keeps every HOMEBREW_* variable through its clean
// environment and reads them on every command, brew list included:
// HOMEBREW_GIT_PATH and HOMEBREW_CURL_PATH name the programs it runs,
// HOMEBREW_EDITOR and HOMEBREW_BROWSER others, HOMEBREW_CACHE holds the
// bootsnap cache of compiled Ruby it loads. Only its HOMEBREW_NO_* switches
// turn something off.
const homebrewPrefix = "HOMEBREW_"

// helperVar reports whether setting name makes a program that only reads
// run a helper or load code the variable picks.
func helperVar(name string) bool {
	if helperEnv[name] {
		return true
	}
	if strings.HasPrefix(name, homebrewPrefix) && !strings.HasPrefix(name, homebrewPrefix+"NO_") {
		return true
	}
	if toolchainPlaceVars[name] || toolchainVersionVars[name] {
		return false
	}
	for _, p := range runtimeEnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
