package domain

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// TestSnapshotEncoderMatchesEncodingJSON: appendSnapshot writes what
// encoding/json writes, byte for byte, for states whose every field — found
// by reflection, so a field added later is filled too — is zero, empty or
// set to values that need escaping, sorting or an offset; and where it
// cannot (times out of JSON's range), Snapshot gives encoding/json's answer.
func TestSnapshotEncoderMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	odd, fast := 0, 0
	for i := range 3000 {
		f := filler{t: t, r: r, odd: i%10 == 9}
		var s state
		f.fill(reflect.ValueOf(&s).Elem(), 0)
		want, wantErr := json.Marshal(snapshot{Format: snapshotFormat, State: s})
		got, ok := appendSnapshot(nil, &s)
		if ok {
			fast++
			if wantErr != nil || !bytes.Equal(got, want) {
				t.Fatalf("state %d: appendSnapshot wrote\n%s\nencoding/json (%v)\n%s", i, got, wantErr, want)
			}
		} else if !f.odd {
			t.Fatalf("state %d has nothing odd but appendSnapshot gave up: %s", i, want)
		}
		if f.odd {
			odd++
		}
		a := &Account{s: s}
		snap, err := a.Snapshot()
		if (err != nil) != (wantErr != nil) || !bytes.Equal(snap, want) {
			t.Fatalf("state %d: Snapshot = %s (%v), want %s (%v)", i, snap, err, want, wantErr)
		}
	}
	if odd == 0 || fast < 2700 {
		t.Fatalf("%d states written fast, %d odd", fast, odd)
	}
}

// filler sets every exported field of a value, recursively, to one of a
// few zero, empty and awkward values. odd allows times encoding/json
// refuses or that appendSnapshot leaves to it.
type filler struct {
	t   *testing.T
	r   *rand.Rand
	odd bool
}

var fillerStrings = []string{"", "a", "acc-1", "sk_live_0123456789abcdef", `q"uo\te`, "<b>&amp;</b>", "é ü 日本", "line\u2028sep\u2029", "ctl\x01\x1f\n\t\b\f\r", "bad\xffutf8", "z", "A"}

var fillerZones = []*time.Location{time.UTC, time.FixedZone("IST", 5*3600+30*60), time.FixedZone("NST", -(3*3600 + 30*60)), time.FixedZone("", 0)}

func (f *filler) time() time.Time {
	switch f.r.IntN(8) {
	case 0:
		return time.Time{}
	case 1:
		if f.odd {
			return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) // out of JSON's range
		}
	case 2:
		if f.odd {
			return time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("LMT", 3600+17)) // an offset with seconds
		}
	}
	t := time.Unix(f.r.Int64N(4e9), 0).Add(time.Duration(f.r.IntN(3)) * time.Duration(f.r.Int64N(1e9)))
	return t.In(fillerZones[f.r.IntN(len(fillerZones))])
}

func (f *filler) fill(v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(f.time()))
		return
	}
	zero := f.r.IntN(4) == 0 || depth > 6
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.String:
		if !zero {
			v.SetString(fillerStrings[f.r.IntN(len(fillerStrings))])
		}
	case reflect.Bool:
		v.SetBool(!zero && f.r.IntN(2) == 0)
	case reflect.Int, reflect.Int32, reflect.Int64:
		if !zero {
			v.SetInt([]int64{1, -1, 42, 1e9, -7e15, 9223372036854775807}[f.r.IntN(6)])
		}
	case reflect.Pointer:
		if !zero {
			p := reflect.New(v.Type().Elem())
			f.fill(p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		if zero {
			return
		}
		n := f.r.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if zero {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range f.r.IntN(5) {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		f.t.Fatalf("filler: a field of kind %s (%s): teach the filler and appendSnapshot", v.Kind(), v.Type())
	}
}
