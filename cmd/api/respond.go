package main

import (
	"encoding/json"
	"net/http"
)

// encode writes v as JSON with status.
func encode(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
