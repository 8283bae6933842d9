package project

import (
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

// NewPlan builds the projection of a data file's schema (file, with the field
// ids the file carries or the reader resolved) onto a read schema, matching
// fields by field id at every nesting level (never by name or position).
//
// It returns a *[FieldError] matching [ErrRequiredFieldMissing] for a required
// read field the file lacks that has no initial-default and no constant, and
// one matching [ErrIncompatibleType] for a file column whose type opts.Rules
// do not allow reading as the read type (a map key whose type changed, a
// struct read from a primitive, …). Both are found here, before any decoding.
// A field matches a file field only among the children of the matched parent
// (a field moved to another struct is not followed).
func NewPlan(file, read *schema.Schema, opts Options) (*Plan, error) {
	b := &planBuilder{opts: opts}
	p := &Plan{fileName: opts.FileName, rules: opts.Rules, file: file, read: read}
	// keepOne: when no read field comes from the file (all new, defaulted or
	// constant), the cheapest column is still decoded so that batches carry
	// the file's row count.
	top, proj, err := b.fields(read.Fields, file.Fields, "", "", true)
	if err != nil {
		return nil, err
	}
	if allMissing(top) && len(proj) == 1 {
		p.rowsFrom = leafPath("", proj[0])
	}
	p.top = top
	p.proj = &schema.Schema{ID: file.ID, Fields: proj}
	p.projArrow = schema.ToArrowSchema(p.proj)
	p.out = schema.ToArrowSchema(read)
	p.dropped = sortDropped(file, b.dropped)
	p.passThrough = len(top) == len(proj)
	for i, n := range top {
		if n.act != actTake || n.src != i || n.nullCheck {
			p.passThrough = false
		}
	}
	return p, nil
}

// sortDropped orders dropped file columns as the file schema lists them
// (pre-order).
func sortDropped(file *schema.Schema, ds []Dropped) []Dropped {
	if len(ds) < 2 {
		return ds
	}
	pos := make(map[string]int)
	schema.Walk(file.Fields, func(path []string, _ *schema.Field) bool {
		pos[strings.Join(path, ".")] = len(pos)
		return true
	})
	sort.SliceStable(ds, func(i, j int) bool { return pos[ds[i].Path] < pos[ds[j].Path] })
	return ds
}

type planBuilder struct {
	opts    Options
	dropped []Dropped
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// fields plans the read fields reads against the file fields files (the
// children of matched parents). It returns one node per read field and the
// projected file fields in file order. With keepOne set (the children of a
// struct that exists in the file), a projection that would be empty keeps the
// cheapest leaf.
func (b *planBuilder) fields(reads, files []*schema.Field, readPath, filePath string, keepOne bool) ([]*node, []*schema.Field, error) {
	byID := make(map[int]int, len(files))
	for i, f := range files {
		if f.ID != schema.NoID {
			if _, dup := byID[f.ID]; !dup {
				byID[f.ID] = i
			}
		}
	}
	nodes := make([]*node, len(reads))
	pruned := make([]*schema.Field, len(files))
	fileOf := make([]int, len(reads))
	for i, r := range reads {
		fi, ok := byID[r.ID]
		var ff *schema.Field
		if ok && r.ID != schema.NoID {
			ff = files[fi]
		} else {
			fi = -1
		}
		n, pf, err := b.field(r, ff, joinPath(readPath, r.Name), filePathOf(filePath, ff))
		if err != nil {
			return nil, nil, err
		}
		nodes[i] = n
		fileOf[i] = -1
		if pf != nil {
			pruned[fi] = pf
			fileOf[i] = fi
		}
	}
	var proj []*schema.Field
	index := make([]int, len(files))
	for i, f := range files {
		index[i] = -1
		if pruned[i] != nil {
			index[i] = len(proj)
			proj = append(proj, pruned[i])
			continue
		}
		b.dropped = append(b.dropped, Dropped{ID: f.ID, Path: joinPath(filePath, f.Name), Type: f.Type.String()})
	}
	for i, n := range nodes {
		n.src = -1
		if fileOf[i] >= 0 {
			n.src = index[fileOf[i]]
		}
	}
	if keepOne && len(proj) == 0 && len(files) > 0 {
		best, bestCost := -1, 0
		var bestField *schema.Field
		for i, f := range files {
			pf, c := cheapest(f)
			if best < 0 || c < bestCost {
				best, bestCost, bestField = i, c, pf
			}
		}
		proj = []*schema.Field{bestField}
		// It is read, not dropped.
		for i, d := range b.dropped {
			if d.Path == joinPath(filePath, files[best].Name) {
				b.dropped = append(b.dropped[:i], b.dropped[i+1:]...)
				break
			}
		}
	}
	return nodes, proj, nil
}

func filePathOf(parent string, f *schema.Field) string {
	if f == nil {
		return ""
	}
	return joinPath(parent, f.Name)
}

// field plans one read field r against its file field f (nil when the file
// lacks it). It returns the node and the projected file field (nil when no
// file data is needed).
func (b *planBuilder) field(r, f *schema.Field, path, filePath string) (*node, *schema.Field, error) {
	n := &node{read: r, path: path, file: f, filePath: filePath, out: schema.ToArrowType(r.Type), src: -1}
	n.nullCheck = f != nil && r.Required && !f.Required
	fieldErr := func(err error) error {
		fe := &FieldError{File: b.opts.FileName, FieldID: r.ID, Path: path, ReadType: r.Type, Err: err}
		if f != nil {
			fe.FileType = f.Type
		}
		return fe
	}
	if c, ok := b.opts.Constants[r.ID]; ok {
		if c == nil {
			if r.Required {
				return nil, nil, fieldErr(fmt.Errorf("%w: a required field cannot be a null constant", ErrInvalidValue))
			}
			n.act = actNull
			return n, nil, nil
		}
		if err := checkValue(r.Type, n.out, c); err != nil {
			return nil, nil, fieldErr(fmt.Errorf("%w: constant: %v", ErrInvalidValue, err))
		}
		n.act, n.value = actConstant, c
		return n, nil, nil
	}
	if f != nil && f.Type.Kind() == schema.KindUnknown {
		// An unknown column holds only nulls: nothing to decode.
		if r.Type.Kind() != schema.KindUnknown && b.opts.Rules.format != formatIcebergV3 {
			return nil, nil, fieldErr(ErrIncompatibleType)
		}
		f = nil
	}
	if f == nil {
		n.file, n.filePath = nil, ""
		switch {
		case r.InitialDefault != nil:
			if err := checkValue(r.Type, n.out, r.InitialDefault); err != nil {
				return nil, nil, fieldErr(fmt.Errorf("%w: initial-default: %v", ErrInvalidValue, err))
			}
			n.act, n.value = actDefault, r.InitialDefault
		case r.Required:
			return nil, nil, fieldErr(ErrRequiredFieldMissing)
		default:
			n.act = actNull
		}
		return n, nil, nil
	}

	var pf *schema.Field
	switch rt := r.Type.(type) {
	case *schema.StructType:
		ft, ok := f.Type.(*schema.StructType)
		if !ok {
			return nil, nil, fieldErr(ErrIncompatibleType)
		}
		kids, proj, err := b.fields(rt.Fields, ft.Fields, path, filePath, true)
		if err != nil {
			return nil, nil, err
		}
		n.act, n.children = actStruct, kids
		pf = withType(f, &schema.StructType{Fields: proj})
		if allMissing(kids) && len(proj) == 1 {
			n.levels = leafPath(filePath, proj[0])
		}
	case *schema.ListType:
		ft, ok := f.Type.(*schema.ListType)
		if !ok {
			return nil, nil, fieldErr(ErrIncompatibleType)
		}
		el, pel, err := b.child(rt.Element, ft.Element, path, filePath)
		if err != nil {
			return nil, nil, err
		}
		if pel == nil {
			pel, _ = cheapest(ft.Element)
			n.levels = leafPath(filePath, pel)
		}
		el.src = 0
		n.act, n.children = actList, []*node{el}
		pf = withType(f, &schema.ListType{Element: pel})
	case *schema.MapType:
		ft, ok := f.Type.(*schema.MapType)
		if !ok {
			return nil, nil, fieldErr(ErrIncompatibleType)
		}
		key, pkey, err := b.child(rt.Key, ft.Key, path, filePath)
		if err != nil {
			return nil, nil, err
		}
		fk, fok := ft.Key.Type.(schema.PrimitiveType)
		rk, rok := rt.Key.Type.(schema.PrimitiveType)
		if key.act != actTake || fok && rok && !b.opts.Rules.AllowsMapKey(fk, rk) {
			return nil, nil, &FieldError{File: b.opts.FileName, FieldID: rt.Key.ID, Path: key.path,
				FileType: ft.Key.Type, ReadType: rt.Key.Type,
				Err: fmt.Errorf("%w: a map key's type cannot change", ErrIncompatibleType)}
		}
		val, pval, err := b.child(rt.Value, ft.Value, path, filePath)
		if err != nil {
			return nil, nil, err
		}
		if pval == nil {
			// Decoders build a map from its key and value columns: keep the
			// cheapest leaf of the value.
			pval, _ = cheapest(ft.Value)
		}
		key.src, val.src = 0, 1
		n.act, n.children = actMap, []*node{key, val}
		pf = withType(f, &schema.MapType{Key: pkey, Value: pval})
	case schema.PrimitiveType:
		ft, ok := f.Type.(schema.PrimitiveType)
		if !ok {
			return nil, nil, fieldErr(ErrIncompatibleType)
		}
		allowed, detail := b.opts.Rules.allows(ft, rt)
		if !allowed {
			if detail != "" {
				return nil, nil, fieldErr(fmt.Errorf("%w: %s", ErrIncompatibleType, detail))
			}
			return nil, nil, fieldErr(ErrIncompatibleType)
		}
		pf = withType(f, f.Type)
		in := schema.ToArrowType(ft)
		act, conv := chooseConversion(ft, rt, in, n.out, b.opts.Rules.zone())
		if act == actCast {
			// Run the conversion on an empty array: a pair the rules allow
			// but no kernel implements is refused here, not mid-read.
			empty := array.MakeArrayOfNull(memory.DefaultAllocator, in, 0)
			d, err := conv(empty.Data(), n.out, memory.DefaultAllocator)
			empty.Release()
			if err != nil {
				return nil, nil, fieldErr(err)
			}
			d.Release()
		}
		n.act, n.conv = act, conv
		n.pooled = act == actCast && !isSlow(conv)
	default:
		return nil, nil, fieldErr(ErrIncompatibleType)
	}
	n.in = schema.ToArrowType(pf.Type)
	if n.act != actTake && n.act != actCast && arrow.TypeEqual(n.in, n.out, arrow.CheckMetadata()) {
		n.act = actTake
	}
	return n, pf, nil
}

// child plans a list element or a map key or value: matched by id like any
// field, or, when neither side has an id (Paimon and Hudi schemas give
// container parts none), structurally: the parent matched, and a list has
// one element and a map one key and one value.
func (b *planBuilder) child(r, f *schema.Field, parentPath, parentFilePath string) (*node, *schema.Field, error) {
	if r.ID != f.ID {
		f = nil
	}
	n, pf, err := b.field(r, f, joinPath(parentPath, r.Name), filePathOf(parentFilePath, f))
	if err != nil {
		return nil, nil, err
	}
	if pf == nil && f != nil {
		b.dropped = append(b.dropped, Dropped{ID: f.ID, Path: joinPath(parentFilePath, f.Name), Type: f.Type.String()})
	}
	return n, pf, nil
}

func allMissing(ns []*node) bool {
	for _, n := range ns {
		if n.src >= 0 {
			return false
		}
	}
	return true
}

func leafPath(parent string, f *schema.Field) string {
	p := joinPath(parent, f.Name)
	for {
		kids := schema.Children(f.Type)
		if len(kids) == 0 {
			return p
		}
		f = kids[0]
		p = joinPath(p, f.Name)
	}
}

func withType(f *schema.Field, t schema.Type) *schema.Field {
	c := *f
	c.Type = t
	return &c
}

// cheapest returns f pruned to its single cheapest leaf (a map keeps its key
// and the cheapest leaf of its value) and that leaf's cost: the fixed width of
// its values in bytes (variable-length values count as 32), plus 1 per
// nesting level.
func cheapest(f *schema.Field) (*schema.Field, int) {
	switch t := f.Type.(type) {
	case *schema.StructType:
		var best *schema.Field
		bestCost := 0
		for _, c := range t.Fields {
			pc, cost := cheapest(c)
			if best == nil || cost < bestCost {
				best, bestCost = pc, cost
			}
		}
		if best == nil {
			return withType(f, &schema.StructType{}), 1
		}
		return withType(f, &schema.StructType{Fields: []*schema.Field{best}}), bestCost + 1
	case *schema.ListType:
		el, cost := cheapest(t.Element)
		return withType(f, &schema.ListType{Element: el}), cost + 1
	case *schema.MapType:
		k, kc := cheapest(t.Key)
		v, vc := cheapest(t.Value)
		return withType(f, &schema.MapType{Key: k, Value: v}), kc + vc + 1
	case schema.PrimitiveType:
		return withType(f, f.Type), primitiveCost(t)
	}
	return f, 1 << 20
}

func primitiveCost(t schema.PrimitiveType) int {
	switch t.K {
	case schema.KindBoolean, schema.KindTinyInt:
		return 1
	case schema.KindSmallInt, schema.KindFloat16:
		return 2
	case schema.KindInt, schema.KindFloat, schema.KindDate:
		return 4
	case schema.KindLong, schema.KindDouble, schema.KindTime, schema.KindTimestamp, schema.KindTimestampTz,
		schema.KindTimestampNs, schema.KindTimestampTzNs:
		return 8
	case schema.KindDecimal, schema.KindUUID:
		return 16
	case schema.KindFixed:
		return t.Length
	case schema.KindUnknown:
		return 1 << 20 // has no column to read levels from
	}
	return 32
}
