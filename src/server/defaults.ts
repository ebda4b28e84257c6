// Where the web page and API listen unless told otherwise: plain constants, so `dreamlane --help` can show them cheaply.

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 8787
