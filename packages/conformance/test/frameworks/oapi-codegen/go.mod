module github.com/animal-store/conformance/test/frameworks/oapi-codegen

go 1.26.0

require (
	github.com/animal-store/conformance/test/frameworks/petmodel v0.0.0
	github.com/getkin/kin-openapi v0.153.0
	github.com/oapi-codegen/nethttp-middleware v1.3.1
	github.com/oapi-codegen/runtime v1.9.0
)

require (
	github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
	github.com/go-openapi/jsonpointer v1.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	go.yaml.in/yaml/v4 v4.0.0 // indirect
	golang.org/x/text v0.40.0 // indirect
)

// The build copies this folder next to the code it generates, and points this at petmodel-go.
replace github.com/animal-store/conformance/test/frameworks/petmodel => ../petmodel-go
