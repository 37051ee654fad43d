#!/usr/bin/env python3
"""Agency Desk from a script, with Python's standard library only (README: "Writing a script").

    export AGENCY_DESK_URL=$(agency-desk url)   # or node dist/server/cli.js url, in a checkout
    export AGENCY_DESK_TOKEN=adk_pat_...        # an API token with the read, import and clients scopes
    python3 examples/sync_locations.py "Bluebird Coffee" examples/locations.csv

Finds the client by name (creates it when missing), then sends the CSV file itself to the server, which
reads it as the dashboard does (its encoding and byte order mark, its delimiter, its headers: the
dashboard's template, Google Business Profile's bulk sheet, Yext, BrightLocal, Uberall), and imports it
all or nothing as an upsert: a row whose store code (or place id, or name and address) matches a location
updates it, the others are created. Run it again with the same file: nothing changes. Then it lists the
client's locations a page at a time.
"""
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

URL = os.environ["AGENCY_DESK_URL"].rstrip("/")
TOKEN = os.environ["AGENCY_DESK_TOKEN"]
PAGE = int(os.environ.get("AGENCY_DESK_PAGE_SIZE", "500"))


class ApiError(Exception):
    def __init__(self, status, body):
        self.status = status
        self.body = body
        super().__init__(f"{status} {body.get('error', '')}: {body.get('message', body)}")


def api(method, path, body=None, content_type="application/json"):
    """One call; returns (JSON body, headers). Every error is {statusCode, error, message, details?}."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        URL + path,
        method=method,
        data=data,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": content_type},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response), response.headers
    except urllib.error.HTTPError as error:
        raise ApiError(error.code, json.load(error)) from None


def client_named(name):
    """The client's id, creating the client only when none has this name (any case)."""
    found, _ = api("GET", "/api/clients?" + urllib.parse.urlencode({"name": name}))
    if found:
        return found[0]["id"]
    created, _ = api("POST", "/api/clients", {"name": name})
    return created["id"]


def import_file(client_id, csv_file):
    """All or nothing: a 400 says what is wrong (each bad row by its line and field), and nothing is written."""
    with open(csv_file, "rb") as file:
        body = file.read()
    query = urllib.parse.urlencode({"clientId": client_id, "mode": "upsert", "fileName": os.path.basename(csv_file)})
    try:
        result, _ = api("POST", "/api/locations/upload?" + query, body, "text/csv")
    except ApiError as error:
        if error.status != 400:
            raise
        print(error.body["message"], file=sys.stderr)
        for detail in error.body.get("details", []):
            where = f"line {detail['line']}" if "line" in detail else f"row {detail.get('row')}"
            print(f"{where}: {detail.get('field') or detail['path']} {detail['message']}", file=sys.stderr)
        sys.exit(1)
    counts = ", ".join(f"{result[key]} {key}" for key in ("created", "updated", "unchanged", "skipped"))
    print(f"imported {os.path.basename(csv_file)}: {counts}")


def all_locations(client_id):
    """A page at a time: X-Total-Count says how many there are."""
    offset = 0
    while True:
        query = urllib.parse.urlencode({"clientId": client_id, "limit": PAGE, "offset": offset})
        page, headers = api("GET", "/api/locations?" + query)
        yield from page
        offset += len(page)
        if not page or offset >= int(headers["X-Total-Count"]):
            return


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: sync_locations.py CLIENT_NAME FILE.csv")
    name, csv_file = sys.argv[1], sys.argv[2]
    try:
        client_id = client_named(name)
        import_file(client_id, csv_file)
        for location in all_locations(client_id):
            print(f"{location['name']}\t{location['health_status']}\t{location['health_score']}")
    except ApiError as error:
        # A refusal in the server's words (a token without the clients scope, say), not a traceback.
        sys.exit(f"sync_locations.py: {error}")
    except (OSError, urllib.error.URLError) as error:
        sys.exit(f"sync_locations.py: {error}")


if __name__ == "__main__":
    main()
