package projections

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// sqlTypes are the Go field types a column may have and the SQL type
// unnest reads their arrays as; newArray makes the typed array of each.
var sqlTypes = map[reflect.Type]struct {
	sql      string
	newArray func(index, n int) columnArray
}{
	reflect.TypeFor[string]():     {"text", newArray[string]},
	reflect.TypeFor[bool]():       {"bool", newArray[bool]},
	reflect.TypeFor[int32]():      {"int", newArray[int32]},
	reflect.TypeFor[int64]():      {"bigint", newArray[int64]},
	reflect.TypeFor[time.Time]():  {"timestamptz", newArray[time.Time]},
	reflect.TypeFor[*string]():    {"text", newArray[*string]},
	reflect.TypeFor[*bool]():      {"bool", newArray[*bool]},
	reflect.TypeFor[*int32]():     {"int", newArray[*int32]},
	reflect.TypeFor[*int64]():     {"bigint", newArray[*int64]},
	reflect.TypeFor[*time.Time](): {"timestamptz", newArray[*time.Time]},
}

// column is one column of a columnTable.
type column struct {
	name     string // the column, the field's db tag
	sql      string // its SQL type ("uuid" when the tag says so: `db:"account_id,uuid"`)
	index    int    // the field's index in the struct
	newArray func(index, n int) columnArray
}

// columnTable is a read table's columns and the SQL built from them once:
// what to SELECT (uuids read as text), the INSERT's column list, unnest's
// array types and the UPDATE's SET list from a row m of unnest (every
// column but the key, the first).
type columnTable struct {
	columns                      []column
	selectList, insertList, sets string // sets: col = m.col, ...
	unnestArgs                   string // unnest($1::text[]::uuid[], $2::text[], ...)
}

// newColumnTable reads t's fields: each carries a db tag (a column, or "-"
// for a field the table does not hold) and a json tag (its name in the
// API's answer, or "-"), so that a new field says where it goes. It panics
// on a field without them or of a type sqlTypes does not know: a mistake
// any test of the package shows.
func newColumnTable(t reflect.Type) columnTable {
	var ct columnTable
	var sel, ins, unnest, sets []string
	for i := range t.NumField() {
		f := t.Field(i)
		db, dbOK := f.Tag.Lookup("db")
		if _, jsonOK := f.Tag.Lookup("json"); !dbOK || !jsonOK {
			panic(fmt.Sprintf("projections: %s.%s needs a db tag (column or -) and a json tag (answered name or -)", t.Name(), f.Name))
		}
		if db == "-" {
			continue
		}
		name, opt, _ := strings.Cut(db, ",")
		typ, ok := sqlTypes[f.Type]
		if !ok {
			panic(fmt.Sprintf("projections: %s.%s: no SQL type for %s", t.Name(), f.Name, f.Type))
		}
		c := column{name: name, sql: typ.sql, index: i, newArray: typ.newArray}
		expr := name
		if opt == "uuid" {
			c.sql, expr = "uuid", name+"::text"
		}
		ct.columns = append(ct.columns, c)
		sel, ins = append(sel, expr), append(ins, name)
		// A uuid column's strings go as text[], cast by the server: pgx has
		// no binary encoding of a Go string as uuid, and finding that out
		// on every statement (a failed plan, an error that prints the
		// whole array, then the text format) was 5 % of the projector's
		// CPU (docs/benchmarks.md, "Issue 36, fifth session"). Likewise
		// the folds' date[] and uuid[] arguments.
		if c.sql == "uuid" {
			unnest = append(unnest, fmt.Sprintf("$%d::text[]::uuid[]", len(ct.columns)))
		} else {
			unnest = append(unnest, fmt.Sprintf("$%d::%s[]", len(ct.columns), c.sql))
		}
		if len(ct.columns) > 1 {
			sets = append(sets, name+" = m."+name)
		}
	}
	ct.selectList, ct.insertList, ct.sets = strings.Join(sel, ", "), strings.Join(ins, ", "), strings.Join(sets, ", ")
	ct.unnestArgs = "unnest(" + strings.Join(unnest, ", ") + ")"
	return ct
}

// scanTargets points dst (one per column) at row's fields, for Scan.
func (ct *columnTable) scanTargets(row reflect.Value, dst []any) []any {
	for _, c := range ct.columns {
		dst = append(dst, row.Field(c.index).Addr().Interface())
	}
	return dst
}

// arrays returns unnest's arguments for rows: one typed array per column,
// each row's value at the same index.
func (ct *columnTable) arrays(rows []reflect.Value) []any {
	args := make([]any, len(ct.columns))
	for i, c := range ct.columns {
		a := c.newArray(c.index, len(rows))
		for _, r := range rows {
			a.add(r)
		}
		args[i] = a.values()
	}
	return args
}

// columnArray gathers one column's values from rows into a typed slice,
// which pgx sends as the SQL array unnest reads.
type columnArray interface {
	add(row reflect.Value)
	values() any
}

type array[T any] struct {
	index int
	vals  []T
}

func newArray[T any](index, n int) columnArray { return &array[T]{index: index, vals: make([]T, 0, n)} }

func (a *array[T]) add(row reflect.Value) {
	a.vals = append(a.vals, *row.Field(a.index).Addr().Interface().(*T))
}

func (a *array[T]) values() any { return a.vals }
