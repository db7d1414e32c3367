package policy

import "strings"

// Version managers pick the program a shim or proxy runs from variables
// as they do from the working directory's files (toolchains.go):
// RUSTUP_TOOLCHAIN names a toolchain, which rustup takes as a directory
// when it is a path; pyenv before 2.3.3 followed PYENV_VERSION out of its
// versions (CVE-2022-35861); asdf and mise take path:DIR for any tool.
// Their roots and the search paths of the runtimes (RUSTUP_HOME,
// PYENV_ROOT, ASDF_DATA_DIR, DOTNET_ROOT, R_LIBS, ERL_LIBS, CLASSPATH,
// NIX_PATH) hold the programs and modules themselves. A tier 1 write can
// fill a temporary directory, so such a variable naming one, or a
// relative or remote place, or set to a value known only at run time,
// makes the call tier 3: cargo --version then runs what the agent wrote.
// A version's name (RUSTUP_TOOLCHAIN=nightly, PYENV_VERSION=3.12) and a
// root the operator keeps (RUSTUP_HOME=/opt/rustup) keep the call's tier.

// toolchainPlaceVars are the variables naming directories or files whose
// programs or modules run, each a list split at ':'.
var toolchainPlaceVars = set(`RUSTUP_HOME RUSTUP_DIST_SERVER RUSTUP_DIST_ROOT RUSTUP_UPDATE_ROOT RUSTDOC RUSTFMT
	PYENV_ROOT PYENV_DIR PYENV_HOOK_PATH RBENV_ROOT RBENV_DIR RBENV_HOOK_PATH NODENV_ROOT NODENV_DIR NODENV_HOOK_PATH
	GOENV_ROOT GOENV_DIR JENV_ROOT JENV_DIR PLENV_ROOT PLENV_DIR PHPENV_ROOT PHPENV_DIR ASDF_DATA_DIR ASDF_DIR
	ASDF_DEFAULT_TOOL_VERSIONS_FILENAME ASDF_TOOL_VERSIONS_FILENAME MISE_DATA_DIR MISE_CONFIG_DIR
	MISE_DEFAULT_TOOL_VERSIONS_FILENAME MISE_DEFAULT_CONFIG_FILENAME MISE_TRUSTED_CONFIG_PATHS RTX_DATA_DIR TFENV_ROOT
	TFENV_REMOTE NVM_DIR FNM_DIR VOLTA_HOME COREPACK_HOME COREPACK_NPM_REGISTRY SDKMAN_DIR SDKMAN_CANDIDATES_DIR
	DOTNET_ROOT DOTNET_HOST_PATH DOTNET_MSBUILD_SDK_RESOLVER_SDKS_DIR DOTNET_MSBUILD_SDK_RESOLVER_CLI_DIR
	MSBUILDEXTENSIONSPATH MSBuildExtensionsPath MSBuildSDKsPath R_LIBS R_LIBS_USER R_LIBS_SITE OCTAVE_SITE_INITFILE
	GHC_ENVIRONMENT GHC_PACKAGE_PATH ERL_LIBS MIX_EXS MIX_HOME TF_PLUGIN_CACHE_DIR JULIA_PROJECT OCAMLPATH TCLLIBPATH
	CLASSPATH CONDARC PIPENV_PIPFILE IPYTHONDIR MPLCONFIGDIR SBT_GLOBAL_BASE LEIN_HOME CABAL_DIR STACK_ROOT STACK_YAML
	DENO_DIR NIX_PATH NIX_USER_CONF_FILES VIRTUAL_ENV CONDA_PREFIX ANSIBLE_HOME ANSIBLE_PLAYBOOK_DIR TERRAGRUNT_TFPATH
	TG_TF_PATH HGRC BUNDLE_PATH BUNDLE_BIN PNPM_HOME PIPX_HOME POETRY_HOME UV_PYTHON_INSTALL_DIR UV_TOOL_DIR WORKON_HOME
	CONDA_ENVS_PATH MAMBA_ROOT_PREFIX HEX_HOME OPAMROOT GHCUP_INSTALL_BASE_PREFIX M2_HOME MAVEN_HOME ANT_HOME
	CATALINA_HOME OCTAVE_INITFILE`)

// toolchainVersionVars are the variables naming the version a shim runs,
// which may be a path instead.
var toolchainVersionVars = set(`RUSTUP_TOOLCHAIN PYENV_VERSION RBENV_VERSION NODENV_VERSION GOENV_VERSION JENV_VERSION
	PLENV_VERSION PHPENV_VERSION TFENV_TERRAFORM_VERSION UV_PYTHON PDM_PYTHON OPAMSWITCH`)

// toolchainVar classifies setting a version manager's or a runtime's
// variable name to val (known, or else computed at run time).
func (e *eval) toolchainVar(name, val string, known bool, ctx cctx, where string) {
	version := toolchainVersionVars[name] || (strings.HasPrefix(name, "ASDF_") || strings.HasPrefix(name, "MISE_") ||
		strings.HasPrefix(name, "RTX_")) && strings.HasSuffix(name, "_VERSION")
	if !version && !toolchainPlaceVars[name] {
		return
	}
	if !known {
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s sets %s to a value known only at run time: it picks the programs a toolchain runs", where, name)
		return
	}
	if rest, ok := strings.CutPrefix(val, "path:"); ok && version {
		version, val = false, rest // asdf's and mise's path:DIR
	}
	for _, v := range strings.Split(val, ":") {
		if version && !strings.Contains(v, "/") && v != ".." {
			continue // a version's name (3.12, nightly, system)
		}
		if why := toolchainPlaceAgent(v); why != "" {
			e.opaque = true
			e.note(TierDestructive, ctx.covered, "%s sets %s to %s, which %s: it picks the programs a toolchain runs", where, name, truncate(val, 64), why)
			return
		}
	}
}

// toolchainPlaceAgent says why the place v, one element of a toolchain
// variable's list, may hold what a tier 1 call wrote, or returns "": a
// temporary directory, a relative path (from a working directory that
// may be one), a URL or anything else than an absolute path.
func toolchainPlaceAgent(v string) string {
	if _, p, ok := strings.Cut(v, "="); ok && !strings.HasPrefix(v, "/") {
		v = p // NIX_PATH's name=place
	}
	switch {
	case v == "":
		return ""
	case strings.HasPrefix(v, "/"):
		return agentPath(v)
	case strings.HasPrefix(v, "~"):
		return codePathAgent(arg{val: v, known: true})
	}
	return "is not an absolute path"
}
