/*
 * A learned evaluation's forward pass, in C (docs/learning.md, "Inference in
 * the engine").
 *
 * Features of a state from the seat of `player`: for each observation plane
 * (game.h observe) the sum of that plane over its height x width cells, then
 * the observation's scalars: planes + scalars numbers.  The model:
 * z = (x - mean) / scale, then `hidden` units max(0, W1 z + b1) (hidden = 0:
 * none, z itself), then one logit w2 . h + b2, whose sigmoid is the expected
 * reward of `player` in [0, 1].
 *
 * A model on the whole observation (weights format 2, input "observation":
 * the features are the observation's floats themselves, planes * cells +
 * scalars of them) runs sparse: the standardisation is folded into the first
 * layer where the net is made (w1t = (W1 / scale) transposed, b1f = b1 -
 * (W1 / scale) . mean; linear: w2f, b2f likewise), and only the observation's
 * nonzero floats (most of a board's one-hot planes are zero) add their row of
 * w1t to the hidden sums.
 *
 * A model on the plane sums is folded the same way (folded = 1, where the net
 * is made with at most CS_NET_MAX_HIDDEN units): a feature that is 0 (most of
 * the scalars are one-hot) then costs nothing, and the standardisation no
 * pass of its own.
 *
 * Format 2 may add one feature last (classic = 1): the base game's
 * hand-written evaluation of the state for `player` (game.h evaluate), in its
 * score units.
 *
 * No allocation per call: the observation goes to a stack buffer of
 * CS_NET_MAX_OBS floats, the features to one of CS_NET_MAX_IN doubles, the
 * hidden sums to one of CS_NET_MAX_HIDDEN; a game instance whose observation
 * or features are larger, or a net with more units, is refused where the net
 * is made (ext/eval_net.pxi).  Sums and products run in double.
 */
#ifndef CLAIMSOLVE_EVAL_NET_H
#define CLAIMSOLVE_EVAL_NET_H
#include "game.h"

#define CS_NET_MAX_OBS 8192   /* floats: Claim's largest (a 16 x 16 grid, 29 planes) is 7,465 */
#define CS_NET_MAX_IN 256     /* plane-sum features: Claim's largest is 70 */
#define CS_NET_MAX_HIDDEN 256 /* hidden units of a model on the whole observation */

typedef struct cs_eval_net {
    int planes;            /* observation planes, each `cells` floats */
    int cells;             /* height x width */
    int scalars;           /* observation scalars after the planes */
    int n_in;              /* planes + scalars */
    int hidden;            /* hidden units, 0 for a linear model */
    /* the weights file's float32 values, widened to double (exactly) */
    const double *mean;       /* [n_in] */
    const double *inv_scale;  /* [n_in]: 1 / scale, a multiply instead of a divide */
    const double *w1;         /* [hidden][n_in], row-major */
    const double *b1;         /* [hidden] */
    const double *w2;         /* [hidden], or [n_in] when hidden = 0 */
    double b2;
    int classic;              /* 1: the last of the n_in features is g->evaluate(st, player) */
    /* input "observation" (whole = 1): the folded weights, n_in = the observation's size (+ classic) */
    int whole;
    const double *w1t;        /* [n_in][hidden]: W1 / scale, transposed */
    const double *b1f;        /* [hidden]: b1 - (W1 / scale) . mean */
    const double *w2f;        /* hidden = 0: [n_in], W2 / scale */
    double b2f;               /* hidden = 0: b2 - (W2 / scale) . mean */
    /* input "sums" with folded = 1: the same folded weights (w1t, b1f; linear: w2f, b2f) over
       the n_in features, so that a zero feature costs nothing (0: mean and inv_scale, as above) */
    int folded;
} cs_eval_net;

/* the sum of n floats in double, on four independent chains (one chain
   would wait on each add's latency: most of an evaluation's time) */
static inline double cs_net_sum(const float *p, int n) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += p[i];
        s1 += p[i + 1];
        s2 += p[i + 2];
        s3 += p[i + 3];
    }
    for (; i < n; i++)
        s0 += p[i];
    return (s0 + s1) + (s2 + s3);
}

/* the dot product of weights w and features z, four chains */
static inline double cs_net_dot(const double *w, const double *z, int n) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += w[i] * z[i];
        s1 += w[i + 1] * z[i + 1];
        s2 += w[i + 2] * z[i + 2];
        s3 += w[i + 3] * z[i + 3];
    }
    for (; i < n; i++)
        s0 += w[i] * z[i];
    return (s0 + s1) + (s2 + s3);
}

/* the features of an observation `obs` into x[0..n_in) */
static inline void cs_net_features(const cs_eval_net *net, const float *obs, double *x) {
    int k, i;
    const float *p = obs;
    for (k = 0; k < net->planes; k++) {
        x[k] = cs_net_sum(p, net->cells);
        p += net->cells;
    }
    for (i = 0; i < net->scalars; i++)
        x[net->planes + i] = p[i];
}

/* the logit of features x (x is normalised in place) */
static inline double cs_net_forward(const cs_eval_net *net, double *x) {
    int i, h, n = net->n_in;
    double out = net->b2, a;
    for (i = 0; i < n; i++)
        x[i] = (x[i] - net->mean[i]) * net->inv_scale[i];
    if (net->hidden == 0)
        return out + cs_net_dot(net->w2, x, n);
    for (h = 0; h < net->hidden; h++) {
        a = net->b1[h] + cs_net_dot(net->w1 + (long)h * n, x, n);
        if (a > 0.0)
            out += net->w2[h] * a;
    }
    return out;
}

/* the logit of a model on the whole observation `obs` (n_in floats), sparse */
static inline double cs_net_forward_whole(const cs_eval_net *net, const float *obs) {
    double h[CS_NET_MAX_HIDDEN];
    int i, j, n = net->n_in, units = net->hidden;
    double out, v;
    const double *row;
    if (units == 0) {
        out = net->b2f;
        for (i = 0; i < n; i++)
            if (obs[i] != 0.0f)
                out += net->w2f[i] * obs[i];
        return out;
    }
    for (j = 0; j < units; j++)
        h[j] = net->b1f[j];
    for (i = 0; i < n; i++) {
        if (obs[i] == 0.0f)
            continue;
        v = obs[i];
        row = net->w1t + (long)i * units;
        for (j = 0; j < units; j++)
            h[j] += v * row[j];
    }
    out = net->b2;
    for (j = 0; j < units; j++)
        if (h[j] > 0.0)
            out += net->w2[j] * h[j];
    return out;
}

/* the logit of features x (n_in doubles) with the standardisation folded into
   the first layer (net->folded): each nonzero feature adds its row of w1t to
   the hidden sums, eight units at a time in two sets of sums (kept in
   registers: one chain of adds per unit would wait on each add's latency) */
static inline double cs_net_forward_folded(const cs_eval_net *net, const double *x) {
    int nz[CS_NET_MAX_IN];
    int i, j, j0, t, k = 0, n = net->n_in, units = net->hidden;
    double out, h, va, vb;
    const double *ra, *rb;
    if (units == 0) {
        out = net->b2f;
        for (i = 0; i < n; i++)
            out += net->w2f[i] * x[i];
        return out;
    }
    for (i = 0; i < n; i++) {      /* without a branch: which features are zero varies */
        nz[k] = i;
        k += x[i] != 0.0;
    }
    out = net->b2;
    for (j0 = 0; j0 + 8 <= units; j0 += 8) {
        double a[8], b[8];
        for (j = 0; j < 8; j++) {
            a[j] = net->b1f[j0 + j];
            b[j] = 0.0;
        }
        for (t = 0; t + 2 <= k; t += 2) {
            va = x[nz[t]];
            vb = x[nz[t + 1]];
            ra = net->w1t + (long)nz[t] * units + j0;
            rb = net->w1t + (long)nz[t + 1] * units + j0;
            for (j = 0; j < 8; j++) {
                a[j] += va * ra[j];
                b[j] += vb * rb[j];
            }
        }
        if (t < k) {
            va = x[nz[t]];
            ra = net->w1t + (long)nz[t] * units + j0;
            for (j = 0; j < 8; j++)
                a[j] += va * ra[j];
        }
        for (j = 0; j < 8; j++) {
            h = a[j] + b[j];
            if (h > 0.0)
                out += net->w2[j0 + j] * h;
        }
    }
    for (; j0 < units; j0++) {      /* the units after the last eight */
        h = net->b1f[j0];
        for (t = 0; t < k; t++)
            h += x[nz[t]] * net->w1t[(long)nz[t] * units + j0];
        if (h > 0.0)
            out += net->w2[j0] * h;
    }
    return out;
}

/* the logit of `player`'s expected reward at `st`, observed through g */
static inline double cs_net_logit(const cs_eval_net *net, const cs_game *g, const void *st, int player) {
    float obs[CS_NET_MAX_OBS + 1];
    double x[CS_NET_MAX_IN];
    if (net->whole || g->observe_sums == NULL)
        g->observe(g->ctx, st, player, obs);
    if (net->whole) {
        if (net->classic)
            obs[net->n_in - 1] = (float) g->evaluate(g->ctx, st, player);
        return cs_net_forward_whole(net, obs);
    }
    if (g->observe_sums != NULL)
        g->observe_sums(g->ctx, st, player, x);
    else
        cs_net_features(net, obs, x);
    if (net->classic)
        x[net->n_in - 1] = g->evaluate(g->ctx, st, player);
    if (net->folded)
        return cs_net_forward_folded(net, x);
    return cs_net_forward(net, x);
}
#endif
