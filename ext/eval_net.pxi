"""A learned evaluation's net (ext/eval_net.h) made from a weights file's
arrays: checked against the game's observation, widened to double, the
standardisation folded into the first layer where the forward pass takes it
so.  One maker for the learned evaluation (ext/learned.pyx) and Claim It!'s
win objective (ext/claimit_turn_win.pxi)."""

cdef extern from "eval_net.h" nogil:
    enum:
        CS_NET_MAX_OBS
        CS_NET_MAX_IN
        CS_NET_MAX_HIDDEN
    ctypedef struct cs_eval_net:
        int planes
        int cells
        int scalars
        int n_in
        int hidden
        const double *mean
        const double *inv_scale
        const double *w1
        const double *b1
        const double *w2
        double b2
        int classic
        int whole
        const double *w1t
        const double *b1f
        const double *w2f
        double b2f
        int folded
    double cs_net_logit(const cs_eval_net *net, const cs_game *g, const void *st, int player)

NET_INPUTS = ("sums", "observation")


cdef dict fill_eval_net(const cs_game *b, net, cs_eval_net *out):
    """Fills `out` from `net` (the weights' arrays and keys, as
    claimsolve.learn.model.load_weights gives them) for the observation of
    the game instance `b`; returns the arrays `out` points into, which the
    caller keeps alive as long as `out`.  ValueError names what does not
    fit."""
    import numpy
    cdef int n_in, hidden
    cdef const double[::1] mean, inv_scale, w1, b1, w2, w1t, b1f, w2f
    cdef double b2f = 0.0
    name = b.name.decode()
    if b.observe == NULL or b.obs_planes + b.obs_scalars <= 0:
        raise ValueError("game '%s' offers no observation: it cannot have a learned evaluation" % name)
    source_input = str(net["input"]) if "input" in net else "sums"
    if source_input not in NET_INPUTS:
        raise ValueError("weights: input %r is none of %s" % (source_input, ", ".join(NET_INPUTS)))
    whole = source_input == "observation"
    classic = int(net["classic"]) if "classic" in net else 0
    if classic not in (0, 1):
        raise ValueError("weights: classic is %r, not 0 or 1" % classic)
    n_in = (cs_obs_size(b) if whole else b.obs_planes + b.obs_scalars) + classic
    if cs_obs_size(b) > CS_NET_MAX_OBS or (not whole and n_in > CS_NET_MAX_IN):
        raise ValueError("game '%s': an observation of %d floats (%d features) is larger than the "
                         "learned evaluation takes (%d, %d)"
                         % (name, cs_obs_size(b), n_in, CS_NET_MAX_OBS, CS_NET_MAX_IN))
    arrays = {key: numpy.ascontiguousarray(net[key], dtype=numpy.float32)
              for key in ("mean", "scale", "W1", "b1", "W2")}
    hidden = arrays["b1"].shape[0] if arrays["b1"].ndim == 1 else -1
    if (arrays["mean"].shape != (n_in,) or arrays["scale"].shape != (n_in,) or hidden < 0
            or arrays["W1"].shape != (hidden, n_in)
            or arrays["W2"].shape != ((hidden,) if hidden > 0 else (n_in,))):
        raise ValueError("weights of the wrong shapes for game '%s' (%d features)" % (name, n_in))
    if not numpy.all(arrays["scale"] != 0):
        raise ValueError("weights: scale has a zero entry")
    if whole and hidden > CS_NET_MAX_HIDDEN:
        raise ValueError("weights: %d hidden units, more than a model on the whole observation takes (%d)"
                         % (hidden, CS_NET_MAX_HIDDEN))
    # widened to double once (exactly): the forward pass runs in double
    wide = {key: numpy.ascontiguousarray(value, dtype=numpy.float64) for key, value in arrays.items()}
    wide["inv_scale"] = 1.0 / wide["scale"]
    # the standardisation folded into the first layer (ext/eval_net.h): always for the
    # whole observation, for the plane sums when the hidden sums fit its buffer
    fold = whole or hidden <= CS_NET_MAX_HIDDEN
    if fold:
        folded = wide["W1"] * wide["inv_scale"][None, :]
        wide["w1t"] = numpy.ascontiguousarray(folded.T).reshape(-1)
        wide["b1f"] = wide["b1"] - folded @ wide["mean"]
        linear = wide["W2"] * wide["inv_scale"] if hidden == 0 else numpy.zeros(n_in)
        wide["w2f"] = linear
        b2f = float(numpy.float32(net["b2"])) - float(linear @ wide["mean"]) if hidden == 0 else 0.0
    wide["W1"] = wide["W1"].reshape(-1)
    mean, inv_scale, w2 = wide["mean"], wide["inv_scale"], wide["W2"]
    out.planes = b.obs_planes
    out.cells = b.obs_height * b.obs_width
    out.scalars = b.obs_scalars
    out.n_in = n_in
    out.hidden = hidden
    out.mean = &mean[0]
    out.inv_scale = &inv_scale[0]
    out.w2 = &w2[0]
    if hidden > 0:
        w1, b1 = wide["W1"], wide["b1"]
        out.w1 = &w1[0]
        out.b1 = &b1[0]
    else:
        out.w1 = NULL
        out.b1 = NULL
    out.b2 = float(numpy.float32(net["b2"]))     # float32, as the file holds it
    out.whole = whole
    out.classic = classic
    out.w1t = out.b1f = out.w2f = NULL
    out.b2f = 0.0
    out.folded = fold and not whole
    if fold:
        w2f = wide["w2f"]
        out.w2f = &w2f[0]
        out.b2f = b2f
        if hidden > 0:
            w1t, b1f = wide["w1t"], wide["b1f"]
            out.w1t = &w1t[0]
            out.b1f = &b1f[0]
    return wide
