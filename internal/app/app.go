// Package app is the application: the commands that change the ledger
// (internal/app/command) and the reads (internal/app/query). The HTTP layer
// receives one Application and calls one of them per request.
package app

import (
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/app/query"
)

// Application is what the handlers call.
type Application struct {
	Commands command.Commands
	Queries  query.Queries
}
