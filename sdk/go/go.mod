module github.com/a2e-automation/app/sdk/go

go 1.22
