package accounts

// SnapshotEvery is snapshotEvery, for the tests of package accounts_test.
const SnapshotEvery = snapshotEvery
