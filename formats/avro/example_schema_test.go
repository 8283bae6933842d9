package avro_test

import (
	"fmt"

	"github.com/lakecat/lakecat/formats/avro"
)

// ExampleParseSchema parses a record with an optional decimal and an
// Iceberg list, and reads the field ids from the attributes.
func ExampleParseSchema() {
	s, err := avro.ParseSchema(`{"type": "record", "name": "r", "namespace": "x", "fields": [
		{"name": "amount", "field-id": 1, "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}]},
		{"name": "tags", "field-id": 2, "type": {"type": "array", "items": "string", "element-id": 3}}]}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name)
	for _, f := range s.Fields {
		fmt.Println(f.Name, f.Prop("field-id"), f.Type)
	}
	dec := s.Fields[0].Type.Branches[1]
	fmt.Println(dec.Logical, dec.Precision, dec.Scale, s.Fields[1].Type.Prop("element-id"))
	// Output:
	// x.r
	// amount 1 [null, bytes]
	// tags 2 array<string>
	// decimal 9 2 3
}
