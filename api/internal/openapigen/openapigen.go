// Package openapigen turns Go types into the JSON Schemas of an OpenAPI 3.1 document: every
// named struct becomes one entry of components.schemas, described by its Go doc comments, and a
// body or an answer refers to it. The API's drift test (api/openapi_gen_test.go) builds
// api/openapi.json with it from the route table and the request and response types, and fails
// when the committed document differs. It must never be imported by code that serves requests:
// it parses Go source for the comments.
package openapigen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/invopop/jsonschema"
)

// Schemas reflects Go types into schemas and collects the named ones for components.schemas.
type Schemas struct {
	r     *jsonschema.Reflector
	defs  map[string]*jsonschema.Schema
	types map[string]reflect.Type
}

// New returns a Schemas whose descriptions come from the doc comments of the Go packages in
// dirs: directories relative to the working directory, which must be the root of the module
// named modulePath (a directory's packages below it are read too).
func New(modulePath string, dirs []string) (*Schemas, error) {
	s := &Schemas{defs: map[string]*jsonschema.Schema{}, types: map[string]reflect.Type{}}
	s.r = &jsonschema.Reflector{
		Anonymous: true,
		// Answers may grow fields; a client must not refuse them. Request bodies are refused
		// with unknown fields (docs/api.md), which the descriptions say.
		AllowAdditionalProperties: true,
		Namer:                     s.name,
		Mapper:                    mapType,
	}
	for _, d := range dirs {
		if err := s.r.AddGoComments(modulePath, d); err != nil {
			return nil, fmt.Errorf("read comments of %s: %w", d, err)
		}
	}
	return s, nil
}

// mapType fixes what reflection cannot know: types that marshal themselves as text.
func mapType(t reflect.Type) *jsonschema.Schema {
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && t.Implements(reflect.TypeFor[json.Marshaler]()) {
		// eventloomwire.Hash and HexBytes: lowercase hex.
		return &jsonschema.Schema{Type: "string", Pattern: "^[0-9a-f]*$"}
	}
	return nil
}

// name is the component name of t: its Go name, led by its domain for a wire leaf's type
// (checkoutwire.Packet is CheckoutPacket) unless the name already starts with it. The event
// log's types (eventloomwire) and the api and client packages' keep their own names.
func (s *Schemas) name(t reflect.Type) string {
	n := t.Name()
	pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
	if domain, ok := strings.CutSuffix(pkg, "wire"); ok && domain != "eventloom" {
		prefix := string(unicode.ToUpper(rune(domain[0]))) + domain[1:]
		if !strings.HasPrefix(n, prefix) {
			n = prefix + n
		}
	}
	return n
}

// Name is the component name of v's type (a struct Ref has registered).
func (s *Schemas) Name(v any) string { return s.name(reflect.TypeOf(v)) }

// Ref returns the schema of v's type: a reference into components.schemas for a named struct
// (registered with every named type it uses), the schema itself otherwise.
func (s *Schemas) Ref(v any) (*jsonschema.Schema, error) {
	root := s.r.Reflect(v)
	for name, def := range root.Definitions {
		if err := s.register(name, def); err != nil {
			return nil, err
		}
	}
	root.Definitions = nil
	root.Version = ""
	return rewriteRefs(root)
}

// OneOf is a schema that is one of the types of vs.
func (s *Schemas) OneOf(vs ...any) (*jsonschema.Schema, error) {
	out := &jsonschema.Schema{}
	for _, v := range vs {
		r, err := s.Ref(v)
		if err != nil {
			return nil, err
		}
		out.OneOf = append(out.OneOf, r)
	}
	return out, nil
}

// register adds a definition, failing when two different types claim one name.
func (s *Schemas) register(name string, def *jsonschema.Schema) error {
	def, err := rewriteRefs(def)
	if err != nil {
		return err
	}
	if old, ok := s.defs[name]; ok {
		a, _ := json.Marshal(old)
		b, _ := json.Marshal(def)
		if !bytes.Equal(a, b) {
			return fmt.Errorf("two types are named %s in components.schemas", name)
		}
		return nil
	}
	s.defs[name] = def
	return nil
}

// rewriteRefs points the reflector's "#/$defs/" references into components.schemas.
func rewriteRefs(s *jsonschema.Schema) (*jsonschema.Schema, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode schema: %w", err)
	}
	b = bytes.ReplaceAll(b, []byte(`"#/$defs/`), []byte(`"#/components/schemas/`))
	var out jsonschema.Schema
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	return &out, nil
}

// Components returns the named schemas collected so far, by name.
func (s *Schemas) Components() map[string]*jsonschema.Schema { return s.defs }

// Parameter is an OpenAPI parameter object.
type Parameter struct {
	Name        string             `json:"name"`
	In          string             `json:"in"`
	Required    bool               `json:"required,omitempty"`
	Description string             `json:"description,omitempty"`
	Schema      *jsonschema.Schema `json:"schema"`
}

// QueryParameters are the query-string parameters of a struct whose json tags name them (the
// way the API decodes a query string), in field order, each described by its field's comment.
func (s *Schemas) QueryParameters(v any) ([]Parameter, error) {
	r := *s.r
	r.ExpandedStruct = true
	r.DoNotReference = true
	root := r.Reflect(v)
	var out []Parameter
	for pair := root.Properties.Oldest(); pair != nil; pair = pair.Next() {
		p := pair.Value
		desc := p.Description
		p.Description = ""
		out = append(out, Parameter{Name: pair.Key, In: "query", Description: desc, Schema: p})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%T has no query parameters", v)
	}
	return out, nil
}
