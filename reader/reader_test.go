package reader_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/parquet-go/parquet-go"

	lcparquet "github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

type orderRow struct {
	OrderID     int64   `parquet:"order_id,id(1)"`
	OrderName   *string `parquet:"order_name,id(2),optional"`
	OrderUserID *int32  `parquet:"order_user_id,id(3),optional"`
	OrderShopID *int32  `parquet:"order_shop_id,id(4),optional"`
}

func ptr[T any](v T) *T { return &v }

// writeParquet writes rows with parquet-go (field ids from the struct tags)
// and returns the file's bytes.
func writeParquet[T any](t testing.TB, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func ordersFile(t testing.TB) []byte {
	return writeParquet(t, []orderRow{
		{1, ptr("alice"), ptr[int32](10), ptr[int32](100)},
		{2, nil, ptr[int32](11), nil},
		{3, ptr("carol"), nil, ptr[int32](-7)},
	})
}

// TestOrdersExample is the orders example of the first slice: the read
// schema renames #2, moves #4 first and widens it to long, drops #3 and adds
// an optional #5.
func TestOrdersExample(t *testing.T) {
	mem := testutil.CheckedAllocator(t)
	data := ordersFile(t)
	read := schema.New(3,
		&schema.Field{ID: 4, Name: "order_shop_id", Type: schema.Long},
		&schema.Field{ID: 1, Name: "order_id", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "customer", Type: schema.String},
		&schema.Field{ID: 5, Name: "note", Type: schema.String},
	)
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)),
		reader.Options{Name: "orders.parquet", ReadSchema: read, Allocator: mem, BatchRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if got, want := rr.Schema().String(), schema.ToArrowSchema(read).String(); got != want {
		t.Errorf("schema:\n%s\nwant\n%s", got, want)
	}
	got := testutil.ReaderJSON(t, rr)
	want := `{"order_shop_id":100,"order_id":1,"customer":"alice","note":null}
{"order_shop_id":null,"order_id":2,"customer":null,"note":null}
{"order_shop_id":-7,"order_id":3,"customer":"carol","note":null}
`
	if got != want {
		t.Errorf("rows:\n%s\nwant\n%s", got, want)
	}
}

func TestOwnSchemaWhenNoReadSchema(t *testing.T) {
	mem := testutil.CheckedAllocator(t)
	data := ordersFile(t)
	rr, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	got := testutil.ReaderJSON(t, rr)
	want := `{"order_id":1,"order_name":"alice","order_user_id":10,"order_shop_id":100}
{"order_id":2,"order_name":null,"order_user_id":11,"order_shop_id":null}
{"order_id":3,"order_name":"carol","order_user_id":null,"order_shop_id":-7}
`
	if got != want {
		t.Errorf("rows:\n%s\nwant\n%s", got, want)
	}
}

func TestBadInput(t *testing.T) {
	good := ordersFile(t)
	read := schema.New(0, &schema.Field{ID: 1, Name: "order_id", Type: schema.Long, Required: true})
	cases := []struct {
		name string
		data []byte
		opts reader.Options
		want error
	}{
		{"empty file", nil, reader.Options{}, reader.ErrUnknownFormat},
		{"wrong magic", []byte("NOTPARQUETNOTORC"), reader.Options{Name: "bad.bin"}, reader.ErrUnknownFormat},
		{"wrong magic of a .parquet name", []byte("NOTPARQUETNOTORC"), reader.Options{}, reader.ErrBadMagic},
		{"truncated tail", good[:len(good)-10], reader.Options{}, reader.ErrUnknownFormat},
		{"corrupt footer length", corruptFooterLength(good), reader.Options{}, lcparquet.ErrCorrupt},
		{"long for a string column", good, reader.Options{ReadSchema: schema.New(0,
			&schema.Field{ID: 2, Name: "order_name", Type: schema.Long})}, project.ErrIncompatibleType},
		{"missing required column", good, reader.Options{ReadSchema: schema.New(0,
			read.Fields[0], &schema.Field{ID: 9, Name: "region", Type: schema.String, Required: true})}, project.ErrRequiredFieldMissing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := testutil.CheckedAllocator(t)
			c.opts.Allocator = mem
			if c.opts.Name == "" {
				c.opts.Name = "bad.parquet"
			}
			rr, err := reader.Open(context.Background(), bytes.NewReader(c.data), int64(len(c.data)), c.opts)
			if err == nil {
				rr.Release()
				t.Fatalf("no error, want %v", c.want)
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("error %q is not %v", err, c.want)
			}
			if !bytes.Contains([]byte(err.Error()), []byte(c.opts.Name)) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// corruptFooterLength keeps both magics but claims a footer longer than the
// file.
func corruptFooterLength(good []byte) []byte {
	b := bytes.Clone(good)
	n := len(b)
	b[n-8], b[n-7], b[n-6], b[n-5] = 0xff, 0xff, 0xff, 0x7f
	return b
}

func TestMissingRequiredErrorNamesField(t *testing.T) {
	data := ordersFile(t)
	read := schema.New(0, &schema.Field{ID: 9, Name: "region", Type: schema.String, Required: true})
	_, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)),
		reader.Options{Name: "f.parquet", ReadSchema: read})
	var fe *project.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not a *project.FieldError", err)
	}
	if fe.FieldID != 9 {
		t.Errorf("field id %d, want 9", fe.FieldID)
	}
}

func TestCancelledContext(t *testing.T) {
	data := ordersFile(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := reader.Open(ctx, bytes.NewReader(data), int64(len(data)), reader.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestNoIDsNeedsMapping(t *testing.T) {
	type plain struct {
		A int32 `parquet:"a"`
	}
	data := writeParquet(t, []plain{{1}})
	read := schema.New(0, &schema.Field{ID: 1, Name: "a", Type: schema.Int})
	_, err := reader.Open(context.Background(), bytes.NewReader(data), int64(len(data)), reader.Options{ReadSchema: read})
	if !errors.Is(err, reader.ErrNoFieldIDs) {
		t.Fatalf("error %v, want ErrNoFieldIDs", err)
	}
}
