"""Bridges to other toolkits.

claimsolve.interop.openspiel: our games as OpenSpiel Python games (needs the
`open_spiel` package, in the `test` and `bench` extras).
"""
