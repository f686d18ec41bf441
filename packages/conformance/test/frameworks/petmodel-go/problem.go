package petmodel

// ErrorBody is the spec's Error, as every Go app answers one.
func ErrorBody(status int, code, message string) map[string]any {
	return map[string]any{"code": code, "message": message, "status": status}
}

// Problem is an answer that is an Error: its status, code and message. The apps whose handlers
// return errors (echo, fiber) return one and answer it in their framework's error handler.
type Problem struct {
	Status  int
	Code    string
	Message string
}

func (p *Problem) Error() string { return p.Message }

// Body is the Error the Problem answers with.
func (p *Problem) Body() map[string]any { return ErrorBody(p.Status, p.Code, p.Message) }

// Fail is a Problem as an error.
func Fail(status int, code, message string) error {
	return &Problem{status, code, message}
}

// ListQuery is listPets' query as the `query` tags of Echo's and Fiber's binders read it: a nil
// pointer is a parameter not given.
type ListQuery struct {
	Limit  *int    `query:"limit"`
	Status *string `query:"status"`
}

// Page is the limit and status (empty for any) the query asks for, or a Problem.
func (q ListQuery) Page() (int, string, error) {
	limit := 20
	if q.Limit != nil {
		limit = *q.Limit
	}
	if limit < 1 || limit > 100 {
		return 0, "", Fail(400, "invalid_query", "limit must be 1 to 100")
	}
	if q.Status == nil {
		return limit, "", nil
	}
	if !IsStatus(*q.Status) {
		return 0, "", Fail(400, "invalid_query", "status must be available, pending or sold")
	}
	return limit, *q.Status, nil
}

// Problem is why the bound body is no NewPet (a Problem), or nil.
func (p NewPet) Problem() error {
	switch {
	case p.Name == nil:
		return Fail(400, "validation_failed", "name is required")
	case p.CategoryID == nil:
		return Fail(400, "validation_failed", "categoryId is required")
	case p.Status != nil && !IsStatus(*p.Status):
		return Fail(400, "validation_failed", "status must be available, pending or sold")
	}
	return nil
}
