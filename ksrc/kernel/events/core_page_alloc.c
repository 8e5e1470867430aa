// SPDX-License-Identifier: GPL-2.0-only
/* The ring unit's page allocator (ksrc/mm/page_alloc.c), built again for the core unit. */
#include "ksrc/mm/page_alloc.c"
