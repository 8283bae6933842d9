package expr_test

import (
	"fmt"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

func ExampleParseBind() {
	s := schema.New(0,
		&schema.Field{ID: 1, Name: "region", Type: schema.String},
		&schema.Field{ID: 2, Name: "ts", Type: schema.TimestampTz},
		&schema.Field{ID: 3, Name: "amount", Type: schema.Double},
	)
	b, err := expr.ParseBind("region = 'eu' and ts >= '2024-01-01' and not amount <= 10.5", s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b)
	// A unit whose amounts are all at most 10 cannot match.
	fmt.Println(b.MayMatch(func(id int) (expr.Stats, bool) {
		if id != 3 {
			return expr.Stats{}, false
		}
		return expr.Stats{Rows: 100, Nulls: 0, NaNs: 0, Lower: 1.0, Upper: 10.0}, true
	}))
	_, err = expr.ParseBind("region > 5", s)
	fmt.Println(err)
	_, err = expr.Parse("region = 'eu' and")
	fmt.Println(err)
	// Output:
	// ((1:region = 'eu' AND 2:ts >= '2024-01-01T00:00:00.000000+00:00') AND 3:amount > 10.5)
	// false
	// expr: region > 5: field region (id 1, string): literal 5 is not a 'string'
	// expr: at character 18 of "region = 'eu' and": expected a column, found end of filter
}
