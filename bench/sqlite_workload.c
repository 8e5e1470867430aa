// SPDX-License-Identifier: GPL-2.0-only
/*
 * A deterministic SQLite workload for make bench's BOLT and record figures
 * (scripts/bench.d/bolt.py): an in-memory database filled with ROWS
 * orders (default 200,000) from a fixed pseudo-random sequence, then
 * indexes, point look-ups through them, joins with GROUP BY, updates,
 * deletes and a sort. It prints one line of checksums, the same for every
 * build of the same SQLite, so a rewritten (BOLTed) binary can be checked
 * against the original. Built by the bench script against SQLite's
 * amalgamation, not by the Makefile (it needs the downloaded sqlite3.c).
 *
 * usage: sqlite_workload [ROWS]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

static sqlite3 *db;
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t digest = 1469598103934665603ull;	/* FNV-1a of every result */

static uint32_t next_rand(void)
{
	/* xorshift64*: fixed seed, so every run inserts the same rows */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

static void die(const char *what)
{
	fprintf(stderr, "sqlite_workload: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static void exec(const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql);
}

static sqlite3_stmt *prepare(const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql);
	return st;
}

static void mix(const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		digest ^= c[i];
		digest *= 1099511628211ull;
	}
}

/* Step @st to its end, folding every column of every row into the digest. */
static unsigned long drain(sqlite3_stmt *st)
{
	unsigned long rows = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *t = sqlite3_column_text(st, i);

			if (t)
				mix(t, strlen((const char *)t));
			mix("|", 1);
		}
		rows++;
	}
	if (rc != SQLITE_DONE)
		die(sqlite3_sql(st));
	sqlite3_reset(st);
	return rows;
}

static const char *const words[] = {
	"red", "green", "blue", "amber", "violet", "steel", "cedar", "slate",
	"north", "south", "east", "west", "quick", "quiet", "bright", "heavy",
};

static void insert_rows(long orders)
{
	long customers = orders / 10 + 1, products = orders / 100 + 1;
	sqlite3_stmt *st;
	char text[64];

	exec("BEGIN");
	st = prepare("INSERT INTO customers VALUES (?1, ?2, ?3, ?4)");
	for (long i = 1; i <= customers; i++) {
		snprintf(text, sizeof(text), "%s %s %u", words[next_rand() % 16],
			 words[next_rand() % 16], next_rand() % 1000);
		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 3, (int)(next_rand() % 50));
		sqlite3_bind_double(st, 4, (next_rand() % 10000) / 100.0);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("insert customer");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = prepare("INSERT INTO products VALUES (?1, ?2, ?3, ?4)");
	for (long i = 1; i <= products; i++) {
		snprintf(text, sizeof(text), "%s-%s-%ld", words[next_rand() % 16],
			 words[next_rand() % 16], i);
		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 3, (int)(next_rand() % 40));
		sqlite3_bind_int(st, 4, (int)(100 + next_rand() % 9900));
		if (sqlite3_step(st) != SQLITE_DONE)
			die("insert product");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = prepare("INSERT INTO orders (customer, product, qty, day, note) VALUES (?1, ?2, ?3, ?4, ?5)");
	for (long i = 1; i <= orders; i++) {
		sqlite3_bind_int64(st, 1, 1 + next_rand() % customers);
		sqlite3_bind_int64(st, 2, 1 + next_rand() % products);
		sqlite3_bind_int(st, 3, (int)(1 + next_rand() % 20));
		sqlite3_bind_int(st, 4, (int)(next_rand() % 3650));
		if (next_rand() % 4 == 0) {
			snprintf(text, sizeof(text), "%s %s", words[next_rand() % 16],
				 words[next_rand() % 16]);
			sqlite3_bind_text(st, 5, text, -1, SQLITE_TRANSIENT);
		} else {
			sqlite3_bind_null(st, 5);
		}
		if (sqlite3_step(st) != SQLITE_DONE)
			die("insert order");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec("COMMIT");
}

static void queries(long orders)
{
	long customers = orders / 10 + 1;
	unsigned long rows = 0;
	sqlite3_stmt *st;

	/* point look-ups through an index, with an aggregate each */
	st = prepare("SELECT count(*), sum(o.qty * p.price) FROM orders o JOIN products p"
		     " ON p.id = o.product WHERE o.customer = ?1");
	for (long i = 0; i < customers / 2; i++) {
		sqlite3_bind_int64(st, 1, 1 + next_rand() % customers);
		rows += drain(st);
	}
	sqlite3_finalize(st);
	/* joins of the three tables, grouped */
	static const char *const grouped[] = {
		"SELECT c.region, p.category, count(*), sum(o.qty * p.price), max(o.day)"
		" FROM orders o JOIN customers c ON c.id = o.customer"
		" JOIN products p ON p.id = o.product GROUP BY 1, 2 ORDER BY 1, 2",
		"SELECT o.day / 365, count(DISTINCT o.customer), avg(o.qty)"
		" FROM orders o GROUP BY 1 ORDER BY 1",
		"SELECT c.name, sum(o.qty) AS q FROM customers c JOIN orders o"
		" ON o.customer = c.id WHERE c.region < 5 GROUP BY c.id"
		" ORDER BY q DESC, c.id LIMIT 50",
		"SELECT p.name, count(*) FROM products p JOIN orders o ON o.product = p.id"
		" WHERE o.note LIKE '%quiet%' GROUP BY p.id ORDER BY 2 DESC, 1 LIMIT 50",
		"SELECT region, count(*), round(avg(score), 2) FROM customers"
		" WHERE id IN (SELECT customer FROM orders WHERE qty > 18)"
		" GROUP BY region ORDER BY region",
	};
	for (size_t i = 0; i < sizeof(grouped) / sizeof(grouped[0]); i++) {
		st = prepare(grouped[i]);
		rows += drain(st);
		sqlite3_finalize(st);
	}
	exec("UPDATE orders SET qty = qty + 1 WHERE day % 7 = 3");
	exec("DELETE FROM orders WHERE customer % 13 = 0");
	st = prepare("SELECT count(*), sum(qty), total(length(note)) FROM orders");
	rows += drain(st);
	sqlite3_finalize(st);
	st = prepare("SELECT id, customer, qty FROM orders ORDER BY qty DESC, day, id LIMIT 1000");
	rows += drain(st);
	sqlite3_finalize(st);
	printf("rows %lu digest %016" PRIx64 "\n", rows, digest);
}

int main(int argc, char **argv)
{
	long orders = 200000;
	char *end;

	if (argc > 2 || (argc == 2 && ((orders = strtol(argv[1], &end, 10)) < 1 || *end))) {
		fprintf(stderr, "usage: sqlite_workload [ROWS] (ROWS a positive number)\n");
		return 2;
	}
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die("open :memory:");
	exec("PRAGMA cache_size = -65536");
	exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, region INTEGER, score REAL);"
	     "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category INTEGER, price INTEGER);"
	     "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, product INTEGER,"
	     " qty INTEGER, day INTEGER, note TEXT)");
	insert_rows(orders);
	exec("CREATE INDEX orders_customer ON orders (customer);"
	     "CREATE INDEX orders_product ON orders (product, qty);"
	     "CREATE INDEX customers_region ON customers (region)");
	queries(orders);
	sqlite3_close(db);
	return 0;
}
