// Command gen writes the bundled demo table: three Parquet files with field
// ids (one per schema version) and the table metadata holding the schemas.
// It is deterministic: running it twice writes the same bytes.
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// order0 is a row written under schema 0.
type order0 struct {
	OrderID     int64    `parquet:"order_id,id(1)"`
	OrderName   *string  `parquet:"order_name,id(2),optional"`
	OrderUserID *int32   `parquet:"order_user_id,id(3),optional"`
	OrderShopID *int32   `parquet:"order_shop_id,id(4),optional"`
	Price       *float32 `parquet:"price,id(5),optional"`
	Amount      *int32   `parquet:"amount,id(6),optional,decimal(2:9)"`
}

// order1 is a row written under schema 1.
type order1 struct {
	OrderID     int64    `parquet:"order_id,id(1)"`
	Customer    *string  `parquet:"customer,id(2),optional"`
	OrderUserID *int32   `parquet:"order_user_id,id(3),optional"`
	OrderShopID *int64   `parquet:"order_shop_id,id(4),optional"`
	Price       *float32 `parquet:"price,id(5),optional"`
	Amount      *int32   `parquet:"amount,id(6),optional,decimal(2:9)"`
	Note        *string  `parquet:"note,id(7),optional"`
}

// order2 is a row written under schema 2.
type order2 struct {
	OrderShopID *int64   `parquet:"order_shop_id,id(4),optional"`
	OrderID     int64    `parquet:"order_id,id(1)"`
	Customer    *string  `parquet:"customer,id(2),optional"`
	Price       *float64 `parquet:"price,id(5),optional"`
	Amount      *int64   `parquet:"amount,id(6),optional,decimal(2:18)"`
	Note        *string  `parquet:"note,id(7),optional"`
	Channel     *string  `parquet:"channel,id(8),optional"`
}

func p[T any](v T) *T { return &v }

func main() {
	write("data/00000-orders-schema0.parquet", []order0{
		{1, p("alice"), p[int32](10), p[int32](100), p[float32](9.5), p[int32](1234)},
		{2, p("bob"), p[int32](11), nil, p[float32](20.25), p[int32](-50)},
	})
	write("data/00001-orders-schema1.parquet", []order1{
		{3, p("carol"), p[int32](12), p[int64](5_000_000_000), p[float32](1.5), nil, p("gift")},
		{4, nil, p[int32](13), p[int64](101), p[float32](3), p[int32](99999), nil},
	})
	write("data/00002-orders-schema2.parquet", []order2{
		{p[int64](102), 5, p("dave"), p(0.1), p[int64](123456789012), p("rush"), p("app")},
		{nil, 6, p("erin"), nil, p[int64](7), nil, nil},
	})
	if err := os.MkdirAll("metadata", 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("metadata", "v1.metadata.json"), []byte(metadata), 0o644); err != nil {
		log.Fatal(err)
	}
}

func write[T any](path string, rows []T) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Snappy), parquet.CreatedBy("lakecat-testdata", "1", ""))
	if _, err := w.Write(rows); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

const metadata = `{
  "format-version": 3,
  "table-uuid": "5b0e1a8e-3c1d-4f7a-9c59-1f6b2a0c9e42",
  "location": "orders",
  "last-sequence-number": 0,
  "last-updated-ms": 1767225600000,
  "last-column-id": 8,
  "current-schema-id": 2,
  "schemas": [
    {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "order_name", "required": false, "type": "string"},
      {"id": 3, "name": "order_user_id", "required": false, "type": "int"},
      {"id": 4, "name": "order_shop_id", "required": false, "type": "int"},
      {"id": 5, "name": "price", "required": false, "type": "float"},
      {"id": 6, "name": "amount", "required": false, "type": "decimal(9, 2)"}]},
    {"type": "struct", "schema-id": 1, "fields": [
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "customer", "required": false, "type": "string"},
      {"id": 3, "name": "order_user_id", "required": false, "type": "int"},
      {"id": 4, "name": "order_shop_id", "required": false, "type": "long"},
      {"id": 5, "name": "price", "required": false, "type": "float"},
      {"id": 6, "name": "amount", "required": false, "type": "decimal(9, 2)"},
      {"id": 7, "name": "note", "required": false, "type": "string"}]},
    {"type": "struct", "schema-id": 2, "fields": [
      {"id": 4, "name": "order_shop_id", "required": false, "type": "long"},
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "customer", "required": false, "type": "string"},
      {"id": 5, "name": "price", "required": false, "type": "double"},
      {"id": 6, "name": "amount", "required": false, "type": "decimal(18, 2)"},
      {"id": 7, "name": "note", "required": false, "type": "string"},
      {"id": 8, "name": "channel", "required": false, "type": "string", "initial-default": "web", "write-default": "web"}]}
  ],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {},
  "snapshots": [],
  "snapshot-log": [],
  "metadata-log": []
}
`
