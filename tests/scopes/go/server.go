package server

import (
//     ^ <file>
	"fmt"
	"sync"
)

const DefaultPort = 8080
//    ^ Constant:DefaultPort

const (
	ModeDev  = "dev"
	ModeProd = "prod"
//          ^ Constant:ModeProd
)

var registry, fallback = map[string]Handler{}, Handler(nil)
//            ^ Variable:fallback

// Handler serves one request.
type Handler interface {
	Serve(req *Request) error
//^ Interface:Handler > Method:Serve
	fmt.Stringer
}

type Request struct {
	Path    string
	Headers map[string]string
//^ Struct:Request > Field:Headers
	sync.Mutex
//    ^ Struct:Request > Field:Mutex
}

type HandlerFunc func(req *Request) error

type Stack[T any] struct {
	items []T
}

func (s *Stack[T]) Push(item T) {
	s.items = append(s.items, item)
//         ^ Method:(*Stack[T]).Push
}

func (f HandlerFunc) Serve(req *Request) error {
	return f(req)
//      ^ Method:(HandlerFunc).Serve
}

func Register(name string, h Handler) {
	count := len(registry)
//        ^ Function:Register
	registry[name] = h
	fmt.Println("registered", name, count)
}
