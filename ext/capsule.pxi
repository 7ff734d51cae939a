# The cs_game of an engine's capsule (game.h CS_GAME_CAPSULE), for the
# searches and the generic engine functions that take a game object: included
# by each extension that drives a game through its capsule.
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid


cdef const cs_game *game_from_capsule(object capsule) except NULL:
    """The engine's cs_game; TypeError when `capsule` is not one."""
    if not PyCapsule_IsValid(capsule, CS_GAME_CAPSULE):
        raise TypeError("not a claimsolve game capsule")
    return <const cs_game *> PyCapsule_GetPointer(capsule, CS_GAME_CAPSULE)
