import type { SampleRow } from '../import/protocol.js';
import { formatCount } from '../format.js';
import { LocationHealth } from './HealthBadge.js';
import { usePhoneText } from '../phone-text.js';
import type { Hours } from '../../../server/locations/hours.js';
import { weekWords } from '../hours-words.js';

/** The first rows the import adds, as the server will save them (normalized country, phone ...). */
export function CreatedRows({ samples }: { samples: SampleRow[] }) {
  const phoneText = usePhoneText();
  // The hours as the server read them, when the file has any: "9-5" is seen as 09:00-17:00 before it is saved.
  const withHours = samples.some(({ location }) => location.hours !== null);
  return (
    <section aria-labelledby="samples-title" className="preview-section">
      <h3 id="samples-title">First new locations, as they will be saved</h3>
      <table className="simple-table created-rows" data-testid="samples">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Name</th>
            <th scope="col">Address</th>
            <th scope="col">City</th>
            <th scope="col">State</th>
            <th scope="col">Postal code</th>
            <th scope="col">Country</th>
            <th scope="col">Phone</th>
            {withHours && <th scope="col">Hours</th>}
            <th scope="col">Health</th>
          </tr>
        </thead>
        <tbody>
          {samples.map(({ row, line, location }) => (
            <tr key={row}>
              <td>{formatCount(line)}</td>
              <td>{location.name}</td>
              <td>{location.address}</td>
              <td>{location.city}</td>
              <td>{location.state}</td>
              <td>{location.zip}</td>
              <td>{location.country}</td>
              <td className="created-phone">{location.phone && phoneText(location.phone)}</td>
              {withHours && <td className="created-hours">{location.hours && weekWords(location.hours as Hours)}</td>}
              <td>
                <LocationHealth location={location} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
