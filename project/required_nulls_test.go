package project

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
)

// TestRequiredReadFieldNulls: optional file data read under a required read
// field is read while it holds no null; the first null fails the batch with
// a *ValueError naming the file, the field id and the row (it was read into
// a non-nullable Arrow field holding nulls, with no error). A required
// struct child is checked only where the struct is present.
func TestRequiredReadFieldNulls(t *testing.T) {
	file := sch(fld(1, "id", schema.Long), fld(2, "s", structOf(fld(3, "x", schema.Int))), fld(4, "l", schema.NewList(5, schema.Int, false)))
	read := sch(req(1, "id", schema.Long), fld(2, "s", structOf(req(3, "x", schema.Int))), fld(4, "l", schema.NewList(5, schema.Int, true)))
	opts := Options{FileName: "a.parquet"}

	// No nulls where the read is required: read as is.
	applyJSON(t, mustPlan(t, file, read, opts),
		`[{"id":1,"s":{"x":1},"l":[1]},{"id":2,"s":null,"l":null},{"id":3,"s":{"x":3},"l":[]}]`,
		`[{"id":1,"s":{"x":1},"l":[1]},{"id":2,"s":null,"l":null},{"id":3,"s":{"x":3},"l":[]}]`)

	cases := []struct {
		rows, want string
	}{
		{`[{"id":1,"s":null,"l":null},{"id":null,"s":null,"l":null}]`,
			`project: file "a.parquet": field 1 (id), row 1: null in a required field: read type long is required, the file's field is optional`},
		{`[{"id":1,"s":null,"l":null},{"id":2,"s":{"x":2},"l":null},{"id":3,"s":{"x":null},"l":null}]`,
			`project: file "a.parquet": field 3 (s.x), row 2: null in a required field: read type int is required, the file's field is optional`},
		{`[{"id":1,"s":null,"l":[1,2]},{"id":2,"s":null,"l":[3,null]}]`,
			`project: file "a.parquet": field 5 (l.element), row 3: null in a required field: read type int is required, the file's field is optional`},
	}
	for _, c := range cases {
		mem := checkedMem(t)
		p := mustPlan(t, file, read, opts)
		in := fileBatch(t, mem, p, c.rows)
		out, err := p.Apply(in, mem)
		in.Release()
		p.Release()
		if out != nil {
			out.Release()
		}
		var ve *ValueError
		if !errors.As(err, &ve) || err.Error() != c.want || !errors.Is(err, ErrNullInRequiredField) ||
			!errors.Is(err, lakecat.ErrMissingRequiredField) {
			t.Errorf("rows %s:\n got %v\nwant %s", c.rows, err, c.want)
		}
	}
}
