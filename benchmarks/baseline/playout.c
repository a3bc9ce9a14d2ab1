/*
 * playout.c -- the C baseline for miai's random-playout benchmark.
 *
 * This is a deliberately plain, single-threaded C99 implementation of exactly the playout rule that
 * miai's numba kernel implements, so that "playouts per second" of the two compare implementations,
 * not algorithms.  Build and run:
 *
 *     gcc -O2 -std=c99 -o playout playout.c
 *     ./playout SIZE SECONDS [SEED]         run for about SECONDS, print one JSON line
 *     ./playout SIZE --playouts N [SEED]    run exactly N playouts (deterministic), print one JSON line
 *     ./playout --check SIZE [N] [SEED]     N playouts (default 300), verifying everything after every
 *                                           move against a from-scratch recomputation; exit 1 on mismatch
 *
 * Reading guide
 *   1. Board layout      padded 1-D board, wall border, stride W = N+2, L = W*W points.
 *   2. Board state       colours; chains (head, circular next-in-chain, liberties and stones at the
 *                        head); neighbour colour counts; the list of empty points with inverse index;
 *                        the simple-ko point.
 *   3. play()            place a stone: liberties, merges (KataGo's trick), captures, ko.
 *   4. choose_move()     uniform choice among legal non-eye moves by rejection with removal.
 *   5. playout(), area_score()
 *   6. the --check mode: reference implementations by flood fill, compared after every move.
 *
 * Conventions that fix the exact sequence of playouts for a given seed (an implementation that follows
 * them all reproduces this program's "playouts", "moves" and "black_wins" bit for bit):
 *   - neighbour order: up (p-W), left (p-1), right (p+1), down (p+W);
 *   - the empty list starts as all on-board points in increasing p; removing a point moves the last
 *     entry into its slot; a captured point is appended;
 *   - merging keeps the head of the adjacent chain unless it has strictly fewer stones than the chain
 *     of the new stone; the lists are linked as head1 -> head2 ... last2 -> next(head1) ... -> head1;
 *   - captures happen after all merges, in neighbour order, each chain walked from its head;
 *   - the PRNG state persists from one playout to the next (it is seeded once per run).
 */

#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------------------------------------- */
/* 1. Board layout                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

enum { EMPTY = 0, BLACK = 1, WHITE = 2, WALL = 3 };

#define MIN_SIZE 2
#define MAX_SIZE 25
#define MAX_L ((MAX_SIZE + 2) * (MAX_SIZE + 2))
#define PASS (-1)
#define NO_KO (-1)
#define KOMI 7.5

/* Neighbour counts are packed into one 32-bit word per point: byte k counts neighbours of colour k.
 * Turning a neighbour from EMPTY into colour c is then one addition of (1 << 8c) - 1. */
#define NB_SHIFT(c) (8u * (unsigned)(c))
#define NB_COUNT(word, c) (((word) >> NB_SHIFT(c)) & 0xFFu)
#define NB_DELTA(c) ((1u << NB_SHIFT(c)) - 1u)

/* ---------------------------------------------------------------------------------------------- */
/* 2. Board state                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

typedef struct {
    int size;        /* N */
    int stride;      /* W = N + 2 */
    int npoints;     /* L = W * W */
    int off[4];      /* neighbour offsets: -W, -1, +1, +W */
    int diag[4];     /* diagonal offsets: -W-1, -W+1, +W-1, +W+1 */

    uint8_t color[MAX_L];    /* EMPTY, BLACK, WHITE or WALL */
    int head[MAX_L];         /* chain head of a stone; 0 for empty and wall points (point 0 is a wall
                                corner, never a head, so "head[q] == h" needs no colour test) */
    int next[MAX_L];         /* next stone of the same chain, circular; valid for stones only */
    int libs[MAX_L];         /* exact liberty count, valid at a chain head */
    int stones[MAX_L];       /* stone count, valid at a chain head */
    uint32_t nbr[MAX_L];     /* packed neighbour colour counts (see NB_COUNT) */
    int empty[MAX_L];        /* the empty points, in no meaningful order ... */
    int empty_idx[MAX_L];    /* ... and the index of each empty point in that list */
    int n_empty;
    int ko;                  /* point forbidden to the player to move, or NO_KO */
} Board;

static void board_init(Board *b, int size) {
    int W = size + 2;
    memset(b, 0, sizeof *b);
    b->size = size;
    b->stride = W;
    b->npoints = W * W;
    b->off[0] = -W; b->off[1] = -1; b->off[2] = 1; b->off[3] = W;
    b->diag[0] = -W - 1; b->diag[1] = -W + 1; b->diag[2] = W - 1; b->diag[3] = W + 1;
    for (int p = 0; p < b->npoints; p++) {
        int r = p / W, c = p % W;
        b->color[p] = (r == 0 || c == 0 || r == W - 1 || c == W - 1) ? WALL : EMPTY;
    }
    b->n_empty = 0;
    for (int p = 0; p < b->npoints; p++) {
        if (b->color[p] != EMPTY) continue;
        uint32_t w = 0;
        for (int d = 0; d < 4; d++) w += 1u << NB_SHIFT(b->color[p + b->off[d]]);
        b->nbr[p] = w;
        b->empty_idx[p] = b->n_empty;
        b->empty[b->n_empty++] = p;
    }
    b->ko = NO_KO;
}

/* Reset `b` to the empty board `tmpl` (made by board_init for the same size).  Only the arrays that
 * are meaningful on an empty board are copied, and only their first L entries. */
static void board_reset(Board *b, const Board *tmpl) {
    size_t L = (size_t)tmpl->npoints;
    memcpy(b->color, tmpl->color, L * sizeof b->color[0]);
    memcpy(b->head, tmpl->head, L * sizeof b->head[0]);
    memcpy(b->nbr, tmpl->nbr, L * sizeof b->nbr[0]);
    memcpy(b->empty, tmpl->empty, (size_t)tmpl->n_empty * sizeof b->empty[0]);
    memcpy(b->empty_idx, tmpl->empty_idx, L * sizeof b->empty_idx[0]);
    b->n_empty = tmpl->n_empty;
    b->ko = NO_KO;
}

/* ---------------------------------------------------------------------------------------------- */
/* 3. Placing a stone                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* True if the empty point e touches a stone of the chain whose head is h. */
static inline int touches_chain(const Board *b, int e, int h) {
    const int *hd = b->head;
    return hd[e + b->off[0]] == h || hd[e + b->off[1]] == h ||
           hd[e + b->off[2]] == h || hd[e + b->off[3]] == h;
}

/* Merge two distinct chains of the same colour (KataGo's mergeChains).  The smaller chain is walked;
 * an empty neighbour of one of its stones is a new liberty of the larger chain unless it already
 * touches a stone of the larger chain.  Each walked stone is relabelled at once, so a liberty shared
 * by two stones of the smaller chain is counted only once. */
static void merge_chains(Board *b, int h1, int h2) {
    if (b->stones[h1] < b->stones[h2]) { int t = h1; h1 = h2; h2 = t; }
    int new_libs = 0;
    int s = h2, last;
    do {
        for (int d = 0; d < 4; d++) {
            int e = s + b->off[d];
            if (b->color[e] == EMPTY && !touches_chain(b, e, h1)) new_libs++;
        }
        b->head[s] = h1;
        last = s;
        s = b->next[s];
    } while (s != h2);
    b->stones[h1] += b->stones[h2];
    b->libs[h1] += new_libs;
    /* splice: h1 -> h2 -> ... -> last -> (old next of h1) -> ... -> h1 */
    int n1 = b->next[h1];
    b->next[h1] = h2;
    b->next[last] = n1;
}

/* Remove the chain with head h (it has no liberties); returns the number of stones removed. */
static int remove_chain(Board *b, int h) {
    int col = b->color[h];
    int other = 3 - col;
    uint32_t delta = NB_DELTA(col);
    int n = 0;
    int s = h;
    do {
        b->color[s] = EMPTY;
        b->head[s] = 0;
        b->empty_idx[s] = b->n_empty;
        b->empty[b->n_empty++] = s;
        /* Each distinct chain of the other colour touching s gains one liberty (s itself). */
        int seen[4], nseen = 0;
        for (int d = 0; d < 4; d++) {
            int q = s + b->off[d];
            b->nbr[q] -= delta;                 /* q loses a `col` neighbour, gains an empty one */
            if (b->color[q] == other) {
                int hq = b->head[q], dup = 0;
                for (int i = 0; i < nseen; i++) dup |= (seen[i] == hq);
                if (!dup) { seen[nseen++] = hq; b->libs[hq]++; }
            }
        }
        n++;
        s = b->next[s];
    } while (s != h);
    return n;
}

/* Play colour c at the empty point p, assumed legal (not ko, not suicide). */
static void play(Board *b, int p, int c) {
    const int opp = 3 - c;
    const uint32_t delta = NB_DELTA(c);

    /* The point leaves the empty list (the last entry fills its slot). */
    int i = b->empty_idx[p];
    int last = b->empty[--b->n_empty];
    b->empty[i] = last;
    b->empty_idx[last] = i;

    b->color[p] = (uint8_t)c;
    b->head[p] = p;
    b->next[p] = p;
    b->stones[p] = 1;
    b->libs[p] = (int)NB_COUNT(b->nbr[p], EMPTY);

    int opp_seen[4], n_opp = 0;
    int captures[4], n_cap = 0;
    for (int d = 0; d < 4; d++) {
        int q = p + b->off[d];
        b->nbr[q] += delta;                     /* q loses an empty neighbour, gains a `c` one */
        int cq = b->color[q];
        if (cq == c) {
            int hq = b->head[q];
            if (hq == b->head[p]) continue;     /* already merged through another side */
            b->libs[hq]--;
            merge_chains(b, hq, b->head[p]);
        } else if (cq == opp) {
            int hq = b->head[q], dup = 0;
            for (int k = 0; k < n_opp; k++) dup |= (opp_seen[k] == hq);
            if (dup) continue;
            opp_seen[n_opp++] = hq;
            if (--b->libs[hq] == 0) captures[n_cap++] = hq;
        }
    }

    int captured = 0;
    for (int k = 0; k < n_cap; k++) captured += remove_chain(b, captures[k]);

    /* Simple ko: exactly one stone captured by a lone stone left with exactly one liberty. */
    int h = b->head[p];
    b->ko = (captured == 1 && b->stones[h] == 1 && b->libs[h] == 1) ? captures[0] : NO_KO;
}

/* ---------------------------------------------------------------------------------------------- */
/* 4. Move choice                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* Marsaglia's xorshift64 (13, 7, 17), the generator miai's kernel uses (shifts only, so that the
 * kernel's code also runs interpreted without overflow); the caller takes the high 32 bits. */
static inline uint64_t rng_next(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

/* Uniform integer in [0, k) by Lemire's multiply-shift on the high 32 bits (no modulo). */
static inline int rng_below(uint64_t *state, int k) {
    uint64_t x32 = rng_next(state) >> 32;
    return (int)((x32 * (uint64_t)k) >> 32);
}

/* Would colour c playing at the empty point p be legal and not fill c's own single-point eye? */
static inline int legal_non_eye(const Board *b, int p, int c) {
    if (p == b->ko) return 0;
    uint32_t w = b->nbr[p];
    if (NB_COUNT(w, EMPTY)) return 1;           /* a liberty: legal, and cannot be an eye */
    const int opp = 3 - c;
    if (NB_COUNT(w, opp) == 0) {
        /* All four neighbours are own stones or wall: an eye unless the diagonals spoil it. */
        int bad = NB_COUNT(w, WALL) ? 1 : 0;
        for (int d = 0; d < 4; d++) bad += (b->color[p + b->diag[d]] == opp);
        if (bad < 2) return 0;
    }
    /* Not suicide if it joins an own chain with a spare liberty or captures an opponent chain. */
    for (int d = 0; d < 4; d++) {
        int q = p + b->off[d];
        int cq = b->color[q];
        if (cq == c) {
            if (b->libs[b->head[q]] >= 2) return 1;
        } else if (cq == opp) {
            if (b->libs[b->head[q]] == 1) return 1;
        }
    }
    return 0;
}

/* Pick uniformly among the legal non-eye moves of colour c, or PASS if there are none: draw a random
 * entry of the first k of the empty list; if it is not playable, swap it to position k-1 and shrink
 * k, so that no rejected point is drawn again. */
static int choose_move(Board *b, int c, uint64_t *rng) {
    int k = b->n_empty;
    while (k > 0) {
        int r = rng_below(rng, k);
        int p = b->empty[r];
        if (legal_non_eye(b, p, c)) return p;
        int q = b->empty[k - 1];
        b->empty[r] = q;  b->empty_idx[q] = r;
        b->empty[k - 1] = p;  b->empty_idx[p] = k - 1;
        k--;
    }
    return PASS;
}

/* ---------------------------------------------------------------------------------------------- */
/* 5. Playout and area count                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Area score, black minus white (without komi): stones plus empty regions that border one colour. */
static int area_score(const Board *b) {
    static int mark[MAX_L];
    static int stack[MAX_L];
    static int generation = 0;
    int score = 0;
    int W = b->stride;

    for (int r = 1; r <= b->size; r++)
        for (int p = r * W + 1; p <= r * W + b->size; p++)
            score += (b->color[p] == BLACK) - (b->color[p] == WHITE);

    generation++;
    for (int i = 0; i < b->n_empty; i++) {
        int p = b->empty[i];
        uint32_t w = b->nbr[p];
        if (NB_COUNT(w, EMPTY) == 0) {
            /* A one-point region: its borders are its neighbours (the common case at the end). */
            int nb = NB_COUNT(w, BLACK) > 0, nw = NB_COUNT(w, WHITE) > 0;
            score += (nb && !nw) - (nw && !nb);
            continue;
        }
        if (mark[p] == generation) continue;
        /* Flood fill the region, noting which colours border it. */
        int sp = 0, n = 0, borders = 0;
        mark[p] = generation;
        stack[sp++] = p;
        while (sp) {
            int s = stack[--sp];
            n++;
            for (int d = 0; d < 4; d++) {
                int q = s + b->off[d];
                int cq = b->color[q];
                if (cq == EMPTY) {
                    if (mark[q] != generation) { mark[q] = generation; stack[sp++] = q; }
                } else {
                    borders |= 1 << cq;
                }
            }
        }
        borders &= (1 << BLACK) | (1 << WHITE);
        if (borders == (1 << BLACK)) score += n;
        else if (borders == (1 << WHITE)) score -= n;
    }
    return score;
}

/* Hooks for the --check mode (NULL in normal runs): called before choosing and after playing. */
typedef struct Checker Checker;
static void check_before(Checker *ck, Board *b, int c);
static void check_after(Checker *ck, Board *b, int c, int move);

/* One playout from the empty board with Black to move; returns the number of turns (passes count).
 * *n_passes is set to the number of passes among them, *black_wins to 1 if Black wins by area with
 * komi 7.5. */
static int playout(Board *b, const Board *tmpl, uint64_t *rng, int *n_passes, int *black_wins,
                   Checker *ck) {
    board_reset(b, tmpl);
    int max_turns = 3 * b->size * b->size;
    int c = BLACK, passes = 0, turns = 0, all_passes = 0;
    while (turns < max_turns && passes < 2) {
        if (ck) check_before(ck, b, c);
        int p = choose_move(b, c, rng);
        if (p == PASS) {
            passes++;
            all_passes++;
            b->ko = NO_KO;
        } else {
            passes = 0;
            play(b, p, c);
        }
        if (ck) check_after(ck, b, c, p);
        turns++;
        c = 3 - c;
    }
    *n_passes = all_passes;
    *black_wins = area_score(b) - KOMI > 0;
    return turns;
}

/* ---------------------------------------------------------------------------------------------- */
/* 6. --check: reference implementations by flood fill, compared after every move                  */
/* ---------------------------------------------------------------------------------------------- */

struct Checker {
    uint8_t color_before[MAX_L];  /* colours before the move */
    int ko_before;
    long moves_checked;
    long failures;
};

static void fail(Checker *ck, const char *what, int p, long a, long e) {
    if (ck->failures < 20)
        fprintf(stderr, "CHECK FAILED after move %ld: %s at point %d: have %ld, expected %ld\n",
                ck->moves_checked, what, p, a, e);
    ck->failures++;
}

/* Flood fill the chain of the stone at p over `color`; fills in_chain[] with 1 for its stones
 * (cleared by the caller), returns its size, and stores its distinct liberty count in *nlibs. */
static int ref_chain(const Board *b, const uint8_t *color, int p, uint8_t *in_chain, int *nlibs) {
    int stack[MAX_L], sp = 0, n = 0;
    uint8_t seen_lib[MAX_L];
    memset(seen_lib, 0, sizeof seen_lib);
    int libs = 0, col = color[p];
    in_chain[p] = 1;
    stack[sp++] = p;
    while (sp) {
        int s = stack[--sp];
        n++;
        for (int d = 0; d < 4; d++) {
            int q = s + b->off[d];
            if (color[q] == col && !in_chain[q]) { in_chain[q] = 1; stack[sp++] = q; }
            else if (color[q] == EMPTY && !seen_lib[q]) { seen_lib[q] = 1; libs++; }
        }
    }
    *nlibs = libs;
    return n;
}

static int ref_libs(const Board *b, const uint8_t *color, int p) {
    uint8_t in_chain[MAX_L];
    int libs;
    memset(in_chain, 0, sizeof in_chain);
    ref_chain(b, color, p, in_chain, &libs);
    return libs;
}

/* The reference legality-and-eye test, from colours only (liberties by flood fill). */
static int ref_legal_non_eye(const Board *b, int p, int c, int ko) {
    const uint8_t *color = b->color;
    int opp = 3 - c;
    if (color[p] != EMPTY || p == ko) return 0;
    int n_empty = 0, n_opp = 0, n_wall = 0;
    for (int d = 0; d < 4; d++) {
        int cq = color[p + b->off[d]];
        n_empty += cq == EMPTY; n_opp += cq == opp; n_wall += cq == WALL;
    }
    if (n_empty == 0 && n_opp == 0) {
        int bad = n_wall > 0;
        for (int d = 0; d < 4; d++) bad += color[p + b->diag[d]] == opp;
        if (bad < 2) return 0;                  /* own eye */
    }
    if (n_empty > 0) return 1;
    for (int d = 0; d < 4; d++) {
        int q = p + b->off[d];
        if (color[q] == c && ref_libs(b, color, q) >= 2) return 1;
        if (color[q] == opp && ref_libs(b, color, q) == 1) return 1;
    }
    return 0;                                   /* suicide */
}

/* Before the move: the fast legality test must agree with the reference on every empty point. */
static void check_before(Checker *ck, Board *b, int c) {
    memcpy(ck->color_before, b->color, (size_t)b->npoints);
    ck->ko_before = b->ko;
    for (int i = 0; i < b->n_empty; i++) {
        int p = b->empty[i];
        int fast = legal_non_eye(b, p, c), ref = ref_legal_non_eye(b, p, c, b->ko);
        if (fast != ref) fail(ck, "legal_non_eye", p, fast, ref);
    }
}

/* After the move: replay it on the old colours by the book, then recompute every derived array. */
static void check_after(Checker *ck, Board *b, int c, int move) {
    int L = b->npoints, opp = 3 - c;
    uint8_t col[MAX_L];
    memcpy(col, ck->color_before, (size_t)L);
    int ref_ko = NO_KO;

    if (move == PASS) {
        /* A pass is only allowed when no legal non-eye move exists. */
        for (int p = 0; p < L; p++)
            if (ref_legal_non_eye(b, p, c, ck->ko_before)) { fail(ck, "pass with a move left", p, 1, 0); break; }
    } else {
        /* The chosen move must have been playable on the old colours. */
        static Board before;
        before = *b;
        memcpy(before.color, ck->color_before, (size_t)L);
        if (!ref_legal_non_eye(&before, move, c, ck->ko_before)) fail(ck, "chosen move not playable", move, 0, 1);
        col[move] = (uint8_t)c;
        int captured = 0, cap_point = -1;
        for (int d = 0; d < 4; d++) {
            int q = move + b->off[d];
            if (col[q] != opp) continue;
            if (ref_libs(b, col, q) == 0) {
                uint8_t in_chain[MAX_L];
                int libs;
                memset(in_chain, 0, sizeof in_chain);
                captured += ref_chain(b, col, q, in_chain, &libs);
                for (int s = 0; s < L; s++) if (in_chain[s]) { col[s] = EMPTY; cap_point = s; }
            }
        }
        int lone = 1;
        for (int d = 0; d < 4; d++) lone &= col[move + b->off[d]] != c;
        if (captured == 1 && lone && ref_libs(b, col, move) == 1) ref_ko = cap_point;
    }
    if (b->ko != ref_ko) fail(ck, "ko point", b->ko, b->ko, ref_ko);

    /* Colours. */
    for (int p = 0; p < L; p++)
        if (b->color[p] != col[p]) fail(ck, "color", p, b->color[p], col[p]);

    /* Chains: heads, circular lists, stone and liberty counts. */
    uint8_t done[MAX_L];
    memset(done, 0, sizeof done);
    for (int p = 0; p < L; p++) {
        int cp = b->color[p];
        if (cp == EMPTY || cp == WALL) {
            if (b->head[p] != 0) fail(ck, "head of a non-stone", p, b->head[p], 0);
            continue;
        }
        if (done[p]) continue;
        uint8_t in_chain[MAX_L];
        int libs;
        memset(in_chain, 0, sizeof in_chain);
        int n = ref_chain(b, b->color, p, in_chain, &libs);
        int h = b->head[p];
        if (h < 0 || h >= L || !in_chain[h]) { fail(ck, "head outside its chain", p, h, -1); continue; }
        for (int s = 0; s < L; s++) {
            if (!in_chain[s]) continue;
            done[s] = 1;
            if (b->head[s] != h) fail(ck, "head", s, b->head[s], h);
        }
        if (b->stones[h] != n) fail(ck, "stone count", h, b->stones[h], n);
        if (b->libs[h] != libs) fail(ck, "liberty count", h, b->libs[h], libs);
        int s = h, walked = 0;
        do {
            if (s < 0 || s >= L || !in_chain[s]) { fail(ck, "next-in-chain leaves chain", s, s, -1); break; }
            walked++;
            s = b->next[s];
        } while (s != h && walked <= n);
        if (walked != n) fail(ck, "next-in-chain cycle length", h, walked, n);
    }

    /* Neighbour colour counts of every on-board point. */
    for (int p = 0; p < L; p++) {
        if (b->color[p] == WALL) continue;
        uint32_t w = 0;
        for (int d = 0; d < 4; d++) w += 1u << NB_SHIFT(b->color[p + b->off[d]]);
        if (b->nbr[p] != w) fail(ck, "neighbour counts", p, (long)b->nbr[p], (long)w);
    }

    /* The empty list and its inverse index. */
    int n_empty = 0;
    for (int p = 0; p < L; p++) {
        if (b->color[p] != EMPTY) continue;
        n_empty++;
        int i = b->empty_idx[p];
        if (i < 0 || i >= b->n_empty || b->empty[i] != p) fail(ck, "empty index", p, i, -1);
    }
    if (n_empty != b->n_empty) fail(ck, "number of empty points", -1, b->n_empty, n_empty);

    ck->moves_checked++;
}

/* Reference area score by flood fill of every empty region, compared to area_score(). */
static int ref_area_score(const Board *b) {
    int score = 0;
    uint8_t seen[MAX_L];
    memset(seen, 0, sizeof seen);
    for (int p = 0; p < b->npoints; p++) {
        if (b->color[p] == BLACK) score++;
        else if (b->color[p] == WHITE) score--;
        else if (b->color[p] == EMPTY && !seen[p]) {
            int stack[MAX_L], sp = 0, n = 0, bl = 0, wh = 0;
            seen[p] = 1; stack[sp++] = p;
            while (sp) {
                int s = stack[--sp]; n++;
                for (int d = 0; d < 4; d++) {
                    int q = s + b->off[d];
                    if (b->color[q] == EMPTY && !seen[q]) { seen[q] = 1; stack[sp++] = q; }
                    bl |= b->color[q] == BLACK; wh |= b->color[q] == WHITE;
                }
            }
            if (bl && !wh) score += n;
            if (wh && !bl) score -= n;
        }
    }
    return score;
}

static int run_check(int size, long n, uint64_t seed) {
    static Board b, tmpl;
    static Checker ck;
    board_init(&tmpl, size);
    b = tmpl;
    uint64_t rng = seed;
    long total_turns = 0, wins = 0;
    for (long i = 0; i < n; i++) {
        int bw, np;
        total_turns += playout(&b, &tmpl, &rng, &np, &bw, &ck);
        wins += bw;
        int fast = area_score(&b), ref = ref_area_score(&b);
        if (fast != ref) fail(&ck, "area score", -1, fast, ref);
        if (ck.failures) break;
    }
    printf("{\"impl\":\"c-baseline\",\"check\":%s,\"size\":%d,\"playouts\":%ld,\"moves_checked\":%ld,"
           "\"moves_per_playout\":%.3f,\"black_wins\":%ld,\"failures\":%ld}\n",
           ck.failures ? "false" : "true", size, n, ck.moves_checked,
           (double)total_turns / (double)n, wins, ck.failures);
    return ck.failures ? 1 : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* main                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void) {
    fprintf(stderr,
            "usage: playout SIZE SECONDS [SEED]\n"
            "       playout SIZE --playouts N [SEED]\n"
            "       playout --check SIZE [PLAYOUTS] [SEED]\n"
            "SIZE from %d to %d; SEED a nonzero integer (default 1)\n", MIN_SIZE, MAX_SIZE);
    return 2;
}

static int parse_size(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*end || v < MIN_SIZE || v > MAX_SIZE) ? -1 : (int)v;
}

static int parse_seed(const char *s, uint64_t *seed) {
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || v == 0) return -1;              /* xorshift must not start from 0 */
    *seed = (uint64_t)v;
    return 0;
}

int main(int argc, char **argv) {
    uint64_t seed = 1;
    if (argc >= 3 && strcmp(argv[1], "--check") == 0) {
        int size = parse_size(argv[2]);
        long n = argc >= 4 ? strtol(argv[3], NULL, 10) : 300;
        if (size < 0 || n <= 0 || (argc >= 5 && parse_seed(argv[4], &seed)) || argc > 5) return usage();
        return run_check(size, n, seed);
    }
    if (argc < 3) return usage();
    int size = parse_size(argv[1]);
    if (size < 0) return usage();

    long fixed = 0;                             /* > 0: run exactly this many playouts */
    double seconds = 0;
    int argi = 2;
    if (strcmp(argv[argi], "--playouts") == 0) {
        if (argc < 4 || (fixed = strtol(argv[3], NULL, 10)) <= 0) return usage();
        argi = 4;
    } else {
        char *end;
        seconds = strtod(argv[argi], &end);
        if (*end || !(seconds > 0)) return usage();
        argi = 3;
    }
    if (argc > argi + 1 || (argc == argi + 1 && parse_seed(argv[argi], &seed))) return usage();

    static Board b, tmpl;
    board_init(&tmpl, size);
    b = tmpl;
    uint64_t rng = seed;
    long playouts = 0, total_turns = 0, total_passes = 0, wins = 0;
    double start = now_seconds(), elapsed = 0;
    for (;;) {
        int bw, np;
        total_turns += playout(&b, &tmpl, &rng, &np, &bw, NULL);
        total_passes += np;
        wins += bw;
        playouts++;
        if (fixed) {
            if (playouts >= fixed) { elapsed = now_seconds() - start; break; }
        } else if ((playouts & 63) == 0) {
            elapsed = now_seconds() - start;
            if (elapsed >= seconds) break;
        }
    }
    printf("{\"impl\":\"c-baseline\",\"size\":%d,\"seed\":%llu,\"playouts\":%ld,\"seconds\":%.4f,"
           "\"playouts_per_second\":%.1f,\"moves_per_playout\":%.3f,\"stones_per_playout\":%.3f,"
           "\"black_wins\":%ld,\"black_win_rate\":%.4f}\n",
           size, (unsigned long long)seed, playouts, elapsed, (double)playouts / elapsed,
           (double)total_turns / (double)playouts, (double)(total_turns - total_passes) / (double)playouts,
           wins, (double)wins / (double)playouts);
    return 0;
}
