#!/usr/bin/env python3
"""Agency Desk from a script, with Python's standard library only (README: "Writing a script").

    export AGENCY_DESK_URL=$(agency-desk url)
    export AGENCY_DESK_TOKEN=adk_pat_...        # an API token with the read, import and clients scopes
    python3 examples/sync_locations.py "Bluebird Coffee" locations.csv

Finds the client by name (creates it when missing), imports the CSV's rows (name, address, city, ...)
all or nothing, then lists the client's locations a page at a time.
"""
import csv
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
        super().__init__(f"{status}: {body.get('message', body)}")


def api(method, path, body=None):
    """One call; returns (JSON body, headers). Every error is {statusCode, error, message, details?}."""
    request = urllib.request.Request(
        URL + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
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


def import_rows(client_id, rows):
    """All or nothing: a 400 lists every bad row, and nothing is written."""
    try:
        result, _ = api("POST", "/api/locations/upload", {"clientId": client_id, "rows": rows})
    except ApiError as error:
        if error.status != 400:
            raise
        for detail in error.body.get("details", []):
            print(f"row {detail.get('row')}: {detail.get('field') or detail['path']} {detail['message']}", file=sys.stderr)
        sys.exit(1)
    print(f"imported: {result['created']} new, {result['updated']} updated, {result['skipped']} skipped")


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
    name, csv_file = sys.argv[1], sys.argv[2]
    with open(csv_file, newline="", encoding="utf-8") as file:
        rows = [{key: value for key, value in row.items() if value} for row in csv.DictReader(file)]
    client_id = client_named(name)
    import_rows(client_id, rows)
    for location in all_locations(client_id):
        print(f"{location['name']}\t{location['health_status']}\t{location['health_score']}")


if __name__ == "__main__":
    main()
