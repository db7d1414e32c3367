package policy

// clientVar classifies a variable that points a cluster client at
// storage it writes on a read: helm's SQL storage driver (HELM_DRIVER=sql,
// the name case kept, as helm compares it) runs its schema migrations,
// creating its tables in the database HELM_DRIVER_SQL_CONNECTION_STRING
// names, before helm list or status reads a release. A value known only
// at run time may be "sql".
func (e *eval) clientVar(name, val string, known bool, ctx cctx, where string) {
	if name != "HELM_DRIVER" || known && val != "sql" {
		return
	}
	e.note(TierMutate, ctx.covered, "%s sets HELM_DRIVER: helm's SQL storage driver creates its tables in the database it connects to", where)
}
