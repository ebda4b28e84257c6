// How many messages the offline engine asks for per get_messages page. Its own module so provider selection can
// say it before the engine (and its NLP libraries) is loaded.

/** The engine reads in bulk; the message tools still cap every page in code. */
export const OFFLINE_PAGE_SIZE = 2000
