package db

import (
	"errors"
	"fmt"
	"reflect"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Every connection is opened with SQLite's query planner stability
// guarantee on (SQLITE_DBCONFIG_ENABLE_QPSG): a statement's plan is
// chosen from the statistics and the literals in its text, never from the
// values bound to its parameters.
//
// Without it, once ANALYZE has gathered samples (sqlite_stat4, which this
// build of SQLite keeps), a prepared statement whose parameter is compared
// with an indexed column is planned again every time that parameter
// changes: a player's games, messages, ratings, each time for another
// player. On 20,000 games, reading a player's last games took 20 µs so,
// 8 µs with the guarantee (BenchmarkBoundValuesPlanning). The queries'
// plans do not depend on which player or game they ask for, so a plan made
// once serves every value.
func init() {
	sqlite.RegisterConnectionHook(func(c sqlite.ExecQuerierContext, _ string) error {
		return stablePlans(c, true)
	})
}

// stablePlans turns the guarantee on (or off) for conn, a connection of
// modernc.org/sqlite. The driver offers no call for sqlite3_db_config, so
// this reads the connection's SQLite handle from its first two fields,
// after checking by their names and types that they are what it expects;
// a driver whose connection looks otherwise fails to open, with this
// error, rather than run without the guarantee.
func stablePlans(conn any, on bool) error {
	v := reflect.ValueOf(conn)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return errUnknownConn
	}
	s := v.Elem()
	t := s.Type()
	if t.NumField() < 2 ||
		t.Field(0).Name != "db" || t.Field(0).Type != reflect.TypeFor[uintptr]() ||
		t.Field(1).Name != "tls" || t.Field(1).Type != reflect.TypeFor[*libc.TLS]() {
		return errUnknownConn
	}
	handle := uintptr(s.Field(0).Uint())
	tls := (*libc.TLS)(s.Field(1).UnsafePointer())
	const slot = 8 // libc.VaList's stride, on every target
	args := libc.Xmalloc(tls, 2*slot)
	if args == 0 {
		return fmt.Errorf("db: query planner: out of memory")
	}
	defer libc.Xfree(tls, args)
	var flag int32
	if on {
		flag = 1
	}
	if rc := sqlite3.Xsqlite3_db_config(tls, handle, sqlite3.SQLITE_DBCONFIG_ENABLE_QPSG,
		libc.VaList(args, flag, uintptr(0))); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("db: query planner: sqlite3_db_config(ENABLE_QPSG) returned %d", rc)
	}
	return nil
}

var errUnknownConn = errors.New("db: query planner: the SQLite driver's connection is not laid out as expected (modernc.org/sqlite changed?)")
